import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configuredEngines } from './apertium.mjs';
import { ROOT } from './common.mjs';
import { serveControl, serviceRoutes } from './control-server.mjs';
import { superviseService } from './services.mjs';

/** Runs `start.mjs` to its end and gives its exit code and output. */
function runStack(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'tools/stack/start.mjs'), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

describe('npm start', () => {
  it.each(['6000', '6666', '10080'])('refuses a service port fetch would refuse (%s) before starting anything', async (port) => {
    const { code, output } = await runStack(['translate-api'], { ...process.env, TRANSLATE_API_PORT: port });
    expect(code).toBe(1);
    expect(output).toContain(`TRANSLATE_API_PORT=${port}: fetch refuses to connect to this port (a "bad port" of the Fetch standard)`);
    expect(output).not.toContain('built');
  });

  it.each([
    ['6000', 'STACK_PROMETHEUS_PORT=6000: fetch refuses to connect to this port'],
    ['99999', 'STACK_PROMETHEUS_PORT="99999" must be a TCP port number (1-65535)'],
    ['nine', 'STACK_PROMETHEUS_PORT="nine" must be a TCP port number (1-65535)'],
  ])("refuses Prometheus's port %s before starting anything", async (port, message) => {
    const { code, output } = await runStack(['translate-api'], { ...process.env, STACK_PROMETHEUS_PORT: port });
    expect(code).toBe(1);
    expect(output).toContain(message);
    expect(output).not.toContain('built');
  });
});

describe('superviseService', () => {
  /** Supervises a process that exits with `code` at once, until `until` starts have happened or it gives up. */
  function supervise(code: number, until: number): Promise<{ starts: number; gaveUp: boolean }> {
    return new Promise((resolve) => {
      let starts = 0;
      let done = false;
      const finish = (gaveUp: boolean) => {
        done = true;
        resolve({ starts, gaveUp });
      };
      const start = () => ({ name: 'fake', child: spawn(process.execPath, ['-e', `process.exit(${code})`], { stdio: 'ignore' }) as ChildProcess });
      superviseService(start, {
        stopping: () => done,
        onStart: () => {
          if (++starts === until) finish(false);
        },
        onGiveUp: () => finish(true),
        restartDelayMs: 10,
      });
    });
  }

  it('starts a crashing service again and gives up after five crashes within a minute', async () => {
    expect(await supervise(3, 10)).toEqual({ starts: 5, gaveUp: true });
  });

  it('starts a service that exited cleanly again without counting it as a crash', async () => {
    expect(await supervise(0, 8)).toEqual({ starts: 8, gaveUp: false });
  });

  it('keeps a service it was told to stop down until it is resumed, then starts it again', async () => {
    const started: ChildProcess[] = [];
    let ready: Promise<unknown> = Promise.resolve();
    // A service that stops gracefully on SIGTERM, as the apps do, once it is listening.
    const start = () => {
      const child = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => process.exit(0)); console.log('ready'); setInterval(() => {}, 1000)"], { stdio: ['ignore', 'pipe', 'ignore'] });
      started.push(child);
      ready = new Promise((resolve) => child.stdout.once('data', resolve));
      return { name: 'fake', child, exit: new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? `exit code ${code}`))) };
    };
    let stopping = false;
    const supervisor = superviseService(start, { stopping: () => stopping, onStart: () => {}, onGiveUp: () => {}, restartDelayMs: 10 });
    try {
      await ready;
      expect(await supervisor.hold('SIGTERM')).toEqual({ exit: 'exit code 0', ms: expect.any(Number) });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(started).toHaveLength(1);
      await expect(supervisor.hold('SIGTERM')).rejects.toThrow('fake is not running');

      const again = supervisor.resume();
      expect(again.child).toBe(started[1]);
      expect(again.child.exitCode).toBeNull();
      expect(() => supervisor.resume()).toThrow('fake is not stopped');
    } finally {
      stopping = true;
      for (const child of started) child.kill('SIGKILL');
    }
  });
});

describe('serveControl', () => {
  it('answers a route with its JSON, a failing one with 500 and its message, anything else with 404', async () => {
    const calls: unknown[] = [];
    const url = await serveControl(
      serviceRoutes({
        signal: async (app: string, signal: string) => (calls.push(['signal', app, signal]), { exit: 'SIGKILL', ms: 1 }),
        start: async (app: string, options: { wait: boolean }) => {
          if (app === 'broken') throw new Error('no service broken');
          calls.push(['start', app, options]);
          return { url: 'http://127.0.0.1:1' };
        },
      }),
      0,
    );
    const post = async (path: string, body?: unknown) => {
      const res = await fetch(`${url}${path}`, { method: 'POST', body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: await res.json() };
    };
    expect(await post('/services/batch-worker/signal')).toEqual({ status: 200, body: { exit: 'SIGKILL', ms: 1 } });
    expect(await post('/services/batch-worker/signal', { signal: 'SIGTERM' })).toEqual({ status: 200, body: { exit: 'SIGKILL', ms: 1 } });
    expect(await post('/services/batch-worker/start')).toEqual({ status: 200, body: { url: 'http://127.0.0.1:1' } });
    expect(await post('/services/batch-worker/start', { wait: false })).toEqual({ status: 200, body: { url: 'http://127.0.0.1:1' } });
    expect(calls).toEqual([
      ['signal', 'batch-worker', 'SIGKILL'],
      ['signal', 'batch-worker', 'SIGTERM'],
      ['start', 'batch-worker', { wait: true }],
      ['start', 'batch-worker', { wait: false }],
    ]);
    expect(await post('/services/broken/start')).toEqual({ status: 500, body: { error: 'no service broken' } });
    expect(await post('/services/batch-worker/restart')).toEqual({ status: 404, body: { error: 'no route POST /services/batch-worker/restart' } });
  });
});

describe('configuredEngines', () => {
  it('reads the engines as the services do, so Apertium is installed whenever one of them is Apertium', () => {
    expect(configuredEngines({})).toEqual(['apertium']);
    expect(configuredEngines({ TRANSLATION_ENGINE: 'deepl' })).toEqual(['deepl']);
    expect(configuredEngines({ TRANSLATION_ENGINE: 'deepl', TRANSLATION_ENGINES: 'libretranslate, apertium' })).toEqual(['libretranslate', 'apertium']);
  });
});
