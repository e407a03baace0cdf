// Long-running processes of the stack: start with prefixed output, wait for health, stop.
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { APPS, appMain, DEFAULT_PORTS } from './apps.mjs';
import { localUrl, log, paint, ROOT, run, sleep, StackError, waitUntil, warn } from './common.mjs';

const NAME_WIDTH = Math.max(...APPS.map((app) => app.length));
const PALETTE = ['cyan', 'magenta', 'blue', 'green', 'yellow'];
const LEVEL_COLORS = { fatal: 'red', error: 'red', warn: 'yellow', debug: 'gray', trace: 'gray' };

function tag(name) {
  const index = APPS.indexOf(name);
  return `${paint(PALETTE[index % PALETTE.length] ?? 'gray', name.padEnd(NAME_WIDTH))} ${paint('gray', '|')} `;
}

/** The line stays intact (JSON remains machine-readable); only its colour follows the level. */
function formatLine(name, line, fromStderr) {
  let color = fromStderr ? 'red' : null;
  if (line.startsWith('{')) {
    try {
      color = LEVEL_COLORS[JSON.parse(line).level] ?? null;
    } catch {
      // Not JSON after all: print as is.
    }
  }
  return tag(name) + (color ? paint(color, line) : line);
}

export function relayLines(stream, name, fromStderr, onLine = () => {}) {
  readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
    console.log(formatLine(name, line, fromStderr));
    onLine(line);
  });
}

const describeExit = (code, signal) => (signal ? `signal ${signal}` : `exit code ${code}`);

/**
 * Starts `node dist/apps/<app>/main.js` in its own process group (so the stack decides when it
 * receives signals). `url` is known from HOST and the port, or for port 0 from the app's
 * "… listening" log line (which LOG_LEVEL may hide otherwise); `exit` resolves when it ends.
 * `onLine(line, fromStderr)` sees every line of its output too.
 */
export function startService(app, env, { onLine = () => {} } = {}) {
  const port = Number(env.PORT ?? DEFAULT_PORTS[app]);
  const child = spawn(process.execPath, ['--enable-source-maps', appMain(app)], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve(describeExit(code, signal))));
  const url = new Promise((resolve) => {
    if (port !== 0) resolve(localUrl(env.HOST, port));
    relayLines(child.stdout, app, false, (line) => {
      onLine(line, false);
      if (!line.startsWith('{')) return;
      try {
        const entry = JSON.parse(line);
        if (typeof entry.msg === 'string' && entry.msg.endsWith('listening') && entry.url) resolve(entry.url);
      } catch {
        // Ignore lines that only look like JSON.
      }
    });
  });
  relayLines(child.stderr, app, true, (line) => onLine(line, true));
  return { name: app, child, url, exit };
}

const CRASH_LIMIT = 5;
const CRASH_WINDOW_MS = 60_000;

/**
 * Keeps a service running: one that ends while nobody asked the stack to stop (`stopping()`) is
 * started again after `restartDelayMs`, as Kubernetes would restart its pod; its work resumes
 * from Postgres and the queues. A crash (non-zero exit code or a signal) counts: five within a
 * minute mean it cannot run, and `onGiveUp` is called. A clean exit (code 0, e.g. after someone
 * sent the service SIGTERM) is a graceful stop, not a crash: it is started again uncounted.
 * `onStart` receives each new process of the service.
 *
 * Returns the levers of a test's outage: `hold(signal)` sends the signal and resolves to
 * `{ exit, ms }` once the process has ended, and the service stays down until `resume()`, which
 * starts it again and returns its new process.
 */
export function superviseService(start, { stopping, onStart, onGiveUp, restartDelayMs = 1000 }) {
  const crashes = [];
  let current = null;
  let held = false;
  const launch = () => {
    const service = start();
    current = service;
    onStart(service);
    service.child.once('exit', (code, signal) => {
      if (stopping() || held) return;
      if (code === 0) {
        log(`${service.name} exited cleanly (exit code 0); starting it again`);
      } else {
        const now = Date.now();
        crashes.push(now);
        while (now - crashes[0] >= CRASH_WINDOW_MS) crashes.shift();
        const how = describeExit(code, signal);
        if (crashes.length >= CRASH_LIMIT) {
          console.error(paint('red', `[stack] ${service.name} crashed (${how}) ${crashes.length} times within a minute; giving up`));
          onGiveUp();
          return;
        }
        console.error(paint('yellow', `[stack] ${service.name} crashed (${how}); starting it again`));
      }
      setTimeout(() => {
        if (!stopping() && !held) launch();
      }, restartDelayMs);
    });
  };
  launch();
  return {
    async hold(signal) {
      if (held || hasExited(current.child)) throw new StackError(`${current.name} is not running`);
      held = true;
      const startedAt = Date.now();
      current.child.kill(signal);
      return { exit: await current.exit, ms: Date.now() - startedAt };
    },
    resume() {
      if (!held) throw new StackError(`${current.name} is not stopped`);
      held = false;
      launch();
      return current;
    },
  };
}

/**
 * Resolves the service's URL once /health answers 200; throws if it exits, times out or `signal`
 * is aborted first.
 */
export async function waitHealthy(service, signal, timeoutMs = 90_000) {
  let exited = null;
  service.exit.then((how) => (exited = how));
  const stillRunning = () => {
    if (exited) throw new StackError(`${service.name} exited (${exited}) before it was healthy`);
  };
  const url = await waitUntil(
    async () => {
      stillRunning();
      return Promise.race([service.url, sleep(250).then(() => null)]);
    },
    { what: `${service.name} listening`, timeoutMs, signal },
  );
  await waitUntil(
    async () => {
      stillRunning();
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5000) }).catch(() => null);
      return response?.status === 200;
    },
    { what: `${service.name} /health answering 200`, timeoutMs, intervalMs: 500, signal },
  );
  return url;
}

/**
 * Runs an app's operator command (e.g. `migrate`) to completion, its output prefixed. With
 * `allowFailure` a failed command resolves to its exit code after printing its output.
 */
export async function runAppCommand(app, args, env, { allowFailure = false } = {}) {
  const { code, stdout, stderr } = await run(process.execPath, ['--enable-source-maps', appMain(app), ...args], { env, allowFailure });
  for (const line of `${stdout}${stderr}`.split('\n').filter(Boolean)) console.log(formatLine(app, line, false));
  return code;
}

const hasExited = (child) => child.exitCode !== null || child.signalCode !== null;

function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
}

/**
 * SIGTERM, then up to `timeoutMs` for a graceful exit, then SIGKILL. Whatever the process left
 * running in its group (helper pipelines, for instance) is terminated with it.
 */
export async function stopChild(child, name, timeoutMs) {
  if (!hasExited(child)) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const graceful = await Promise.race([exited.then(() => true), sleep(timeoutMs).then(() => false)]);
    if (!graceful) {
      warn(`${name} did not stop within ${timeoutMs / 1000} s; killing it`);
      signalGroup(child, 'SIGKILL');
      await exited;
    }
  }
  signalGroup(child, 'SIGTERM');
}
