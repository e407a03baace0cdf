#!/usr/bin/env node
// `npm run e2e`: starts the native stack (tools/stack/start.mjs, what `npm start` runs) on free
// ports with its own database, Redis and S3 server, runs the end-to-end suite against it and
// stops it again, whatever the outcome. Exits with the suite's code. Arguments are passed on to
// vitest (e.g. a file filter).
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { APPS as SERVICES, portVariable } from '../tools/stack/apps.mjs';
import { canConnect, ROOT, sleep, StackError as RunError, waitUntil } from '../tools/stack/common.mjs';
import { DEFAULT_DATABASE_URL } from '../tools/stack/postgres.mjs';

/** Building, migrating and starting five services; the first run after a clean checkout is the slowest. */
const STACK_TIMEOUT_MS = Number(process.env.E2E_STACK_TIMEOUT_MS || 180_000);
/** start.mjs gives each service 25 s to stop, and the services stop in parallel. */
const STACK_STOP_TIMEOUT_MS = 40_000;
/** The last thing start.mjs prints once setup, including its own admin commands, is done. */
const READY_LINE = 'Press Ctrl-C to stop everything.';

const log = (message) => console.log(`[e2e] ${message}`);
/** Free TCP ports on loopback, all held open at once so none is handed out twice. */
async function freePorts(count) {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise((resolve, reject) => {
      const server = net.createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve(server));
    })),
  );
  const ports = servers.map((server) => server.address().port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** The stack's own database on the server DATABASE_URL names (start.mjs creates it when missing). */
function e2eDatabaseUrl() {
  if (process.env.E2E_DATABASE_URL) return process.env.E2E_DATABASE_URL;
  const url = new URL(process.env.DATABASE_URL || DEFAULT_DATABASE_URL);
  url.pathname = '/platform_e2e';
  return url.toString();
}

/** Started processes, stopped again on the way out in reverse order of starting. */
const started = [];
/** Set once stopping has begun. */
let cleaning = null;

function startProcess(name, command, args, { env = process.env, output }) {
  if (cleaning) throw new RunError(`stopping: ${name} is not started`);
  // Their own process group: a Ctrl-C in the terminal reaches this script only, which stops them in order.
  const child = spawn(command, args, { cwd: ROOT, env, detached: true, stdio: ['ignore', output ?? 'ignore', output ?? 'ignore'] });
  const exit = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve(signal ?? code));
    // A command that could not be started (ENOENT) may never emit 'exit'.
    child.once('error', (error) => resolve(error.code));
  });
  const entry = { name, child, exit, exited: false };
  exit.then(() => (entry.exited = true));
  started.push(entry);
  return entry;
}

async function stopProcess(entry, timeoutMs) {
  if (entry.exited) return;
  entry.child.kill('SIGTERM');
  const graceful = await Promise.race([entry.exit.then(() => true), sleep(timeoutMs).then(() => false)]);
  if (graceful) return;
  log(`${entry.name} did not stop within ${timeoutMs / 1000} s; killing it`);
  try {
    process.kill(-entry.child.pid, 'SIGKILL');
  } catch {
    // Gone meanwhile.
  }
  await entry.exit;
}

/** Polls `check` until it holds, giving up when `entry` exits first. */
function waitFor(what, check, entry, timeoutMs) {
  return waitUntil(
    async () => {
      if (entry.exited) throw new RunError(`${entry.name} exited while waiting for ${what}`);
      return check();
    },
    { what, timeoutMs },
  );
}

/**
 * A Redis of its own (no persistence), so the stack's queues never meet those of a development
 * stack or of the tests on the shared server; E2E_REDIS_URL names one to use instead.
 */
async function startRedis(port, dir) {
  if (process.env.E2E_REDIS_URL) return process.env.E2E_REDIS_URL;
  const redis = startProcess('redis-server', 'redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {});
  await waitFor('redis-server listening', () => canConnect('127.0.0.1', port), redis, 10_000).catch((error) => {
    throw new RunError(`${error.message}; is redis-server installed? Otherwise set E2E_REDIS_URL to a Redis database nothing else uses`);
  });
  return `redis://127.0.0.1:${port}`;
}

/** An S3 server of its own, with the bucket the stack uses, through the stack's own s3rver script. */
async function startS3(port, dir) {
  const s3 = startProcess('s3rver', process.execPath, [path.join(ROOT, 'tools/stack/s3-server.mjs'), dir, '127.0.0.1', String(port), 'images'], {});
  await waitFor('s3rver listening', () => canConnect('127.0.0.1', port), s3, 15_000);
  return `http://127.0.0.1:${port}`;
}

async function healthy(url) {
  const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5000) }).catch(() => null);
  return response?.status === 200;
}

async function startStack(workDir, logFile) {
  const [redisPort, s3Port, ...servicePorts] = await freePorts(2 + SERVICES.length);
  const urls = Object.fromEntries(SERVICES.map((service, i) => [service, `http://127.0.0.1:${servicePorts[i]}`]));
  const infra = {
    DATABASE_URL: e2eDatabaseUrl(),
    REDIS_URL: await startRedis(redisPort, workDir),
    S3_ENDPOINT: await startS3(s3Port, path.join(workDir, 's3')),
    S3_BUCKET: 'images',
  };
  const env = {
    ...process.env,
    ...infra,
    CDN_URL: `${infra.S3_ENDPOINT}/images`,
    NODE_ENV: 'development',
    // Not the developer's .data: its own sandbox key, matching its own database.
    STACK_DATA_DIR: workDir,
    // Sandbox review and webhook retries on a test's time scale.
    REVIEW_SANDBOX_DELAY_MS: process.env.REVIEW_SANDBOX_DELAY_MS || '1000',
    WEBHOOK_RETRY_SCHEDULE: process.env.WEBHOOK_RETRY_SCHEDULE || '1,1,1,1,1',
    ...Object.fromEntries(SERVICES.map((service, i) => [portVariable(service), String(servicePorts[i])])),
  };
  delete env.HOST;
  log(`starting the stack on ports ${servicePorts.join(', ')} (output in ${logFile})`);
  const startedAt = Date.now();
  const output = createWriteStream(logFile);
  await new Promise((resolve) => output.once('open', resolve));
  const stack = startProcess('stack', process.execPath, [path.join(ROOT, 'tools/stack/start.mjs')], { env, output: 'pipe' });
  for (const stream of [stack.child.stdout, stack.child.stderr]) stream.pipe(output, { end: false });
  let ready = false;
  readline.createInterface({ input: stack.child.stdout }).on('line', (line) => (ready ||= line.includes(READY_LINE)));
  await waitFor(
    'every service answering /health with 200',
    async () => ready && (await Promise.all(Object.values(urls).map(healthy))).every(Boolean),
    stack,
    STACK_TIMEOUT_MS,
  );
  log(`stack ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  return { urls, infra };
}

function runSuite({ urls, infra }) {
  const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  const env = {
    ...process.env,
    // Admin commands work on the stack's database.
    ...infra,
    E2E_TRANSLATE_URL: urls['translate-api'],
    E2E_IMAGE_URL: urls['image-api'],
    E2E_WEBHOOK_DISPATCHER_URL: urls['webhook-dispatcher'],
    E2E_BATCH_WORKER_URL: urls['batch-worker'],
    E2E_IMAGE_WORKER_URL: urls['image-worker'],
    // The stack has just built and migrated the apps: their bundles' admin command is all it takes.
    E2E_TRANSLATE_ADMIN: process.env.E2E_TRANSLATE_ADMIN || 'node dist/apps/translate-api/main.js admin',
    E2E_IMAGE_ADMIN: process.env.E2E_IMAGE_ADMIN || 'node dist/apps/image-api/main.js admin',
  };
  const suite = startProcess('vitest', process.execPath, [vitest, 'run', '--config', 'e2e/vitest.config.ts', ...process.argv.slice(2)], { env, output: 'inherit' });
  return suite.exit.then((code) => (typeof code === 'number' ? code : 1));
}

/** CI keeps no temporary files: the end of the stack's output goes to the terminal. */
function printTail(file, lines) {
  if (!existsSync(file)) return;
  const tail = readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines);
  console.error(`[e2e] last lines of the stack's output:\n${tail.join('\n')}`);
}

function cleanUp(workDir, keepWorkDir) {
  cleaning ??= (async () => {
    for (const entry of [...started].reverse()) await stopProcess(entry, entry.name === 'stack' ? STACK_STOP_TIMEOUT_MS : 10_000);
    if (keepWorkDir) log(`kept ${workDir} (stack output and data)`);
    else rmSync(workDir, { recursive: true, force: true });
  })();
  return cleaning;
}

const workDir = mkdtempSync(path.join(os.tmpdir(), 'platform-e2e-'));
const logFile = path.join(workDir, 'stack.log');

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (cleaning) return;
    log(`${signal}: stopping the stack`);
    cleanUp(workDir, false).then(() => process.exit(128 + os.constants.signals[signal]));
  });
}

const startedAt = Date.now();
let code = 1;
try {
  code = await runSuite(await startStack(workDir, logFile));
} catch (error) {
  if (!cleaning) {
    console.error(`[e2e] ${error instanceof RunError ? error.message : (error?.stack ?? error)}`);
    printTail(logFile, 60);
  }
}
if (!cleaning) {
  log('stopping the stack');
  await cleanUp(workDir, code !== 0);
  log(`${code === 0 ? 'passed' : 'failed'} in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  process.exit(code);
}
