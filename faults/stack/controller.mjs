#!/usr/bin/env node
// The fault suite's stack: a PostgreSQL cluster, redis-server and s3rver of its own on free ports,
// the five services built, migrated and started each as its own process, and a small HTTP control
// interface through which the scenarios kill, stop and restart any of them, freeze a server
// (SIGSTOP: it hangs instead of refusing) and fill the S3 server's disk. Started by
// faults/run.mjs with its output going to a log file; prints one JSON line with the control URL
// once everything is healthy. SIGTERM stops everything it started.
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { ensureApertium } from '../../tools/stack/apertium.mjs';
import { APPS, appMain, buildApps, migratingApps } from '../../tools/stack/apps.mjs';
import { run, StackError } from '../../tools/stack/common.mjs';
import { serveControl, serviceRoutes } from '../../tools/stack/control-server.mjs';
import { freePorts, freezeProcessTree, ProcessSet, startPostgresCluster, startRedisServer, startS3Server } from '../../tools/stack/own-infra.mjs';
import { runAppCommand, startService, stopChild, waitHealthy } from '../../tools/stack/services.mjs';
import { canMountSmallDisk, mountSmallDisk } from '../../tools/stack/small-disk.mjs';

const workDir = path.resolve(process.argv[2] ?? '');
const BUCKET = 'images';
/** Longer than any service's own shutdown budget (SHUTDOWN_TIMEOUT_MS, 20 s by default). */
const SERVICE_STOP_TIMEOUT_MS = 30_000;
/** A service that exits without being told to is started again after this, as Kubernetes would. */
const RESTART_DELAY_MS = 1000;
/** The S3 server's disk (a tmpfs, as root): far more than the suite stores, and only what is stored takes memory. */
const S3_DISK_BYTES = 1024 * 1024 * 1024;

const log = (message) => console.log(JSON.stringify({ msg: message, at: new Date().toISOString(), source: 'faults' }));
const processes = new ProcessSet();
let stopping = false;

/** Settings that put retries and sweeps on the suite's time scale and keep per-client limits out of the way. */
function serviceEnv(infra) {
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    DATABASE_URL: infra.databaseUrl,
    REDIS_URL: infra.redisUrl,
    S3_ENDPOINT: infra.s3Endpoint,
    S3_BUCKET: BUCKET,
    CDN_URL: `${infra.s3Endpoint}/${BUCKET}`,
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    // Attempts at about 0, 5, 15, 35, 75 and 155 s: the last outlasts a receiver down for 2 minutes.
    WEBHOOK_RETRY_SCHEDULE: '5,10,20,40,80',
    WEBHOOK_TIMEOUT_MS: '5000',
    REVIEW_SANDBOX_DELAY_MS: '1000',
    VARIANT_SWEEP_INTERVAL_MS: '2000',
    // A hung dependency costs a request a few seconds, so outages of 20 s show that none waits for the whole of one.
    DATABASE_STATEMENT_TIMEOUT_MS: '3000',
    DATABASE_QUERY_TIMEOUT_MS: '4000',
    REDIS_COMMAND_TIMEOUT_MS: '1000',
    // The load runs through few keys; neither the rate limit nor the test quota is under test here.
    RATE_LIMIT_PER_MINUTE: '1000000',
    // The fuzz run's invalid credentials would otherwise lock every later scenario out for a minute.
    AUTH_FAILURES_PER_MINUTE: '0',
    SANDBOX_MONTHLY_WORDS: '100000000',
    LOG_LEVEL: 'info',
  };
  delete env.HOST;
  delete env.PORT;
  return env;
}

/** Each service as the suite sees it: its process, how often it started, and unplanned exits. */
const services = new Map();
/** Error-level log lines and stderr output of every service, in arrival order. */
const problems = [];

function isProblem(line, fromStderr) {
  if (fromStderr) return line.trim() !== '';
  if (!line.startsWith('{')) return false;
  try {
    const level = JSON.parse(line).level;
    return level === 'error' || level === 'fatal' || level >= 50;
  } catch {
    return false;
  }
}

function service(app) {
  const record = services.get(app);
  if (!record) throw new StackError(`no service ${app}`);
  return record;
}

function launch(app) {
  const record = service(app);
  record.planned = false;
  record.process = startService(app, record.env, {
    onLine: (line, fromStderr) => {
      if (isProblem(line, fromStderr)) problems.push({ at: Date.now(), service: app, line });
    },
  });
  record.starts += 1;
  record.process.exit.then((how) => {
    record.lastExit = how;
    if (stopping || record.planned) return;
    record.crashes.push({ at: Date.now(), how });
    log(`${app} exited unexpectedly (${how}); starting it again`);
    setTimeout(() => !stopping && launch(app), RESTART_DELAY_MS);
  });
  return record.process;
}

async function startServices(env, ports) {
  for (const [i, app] of APPS.entries()) {
    services.set(app, { app, env: { ...env, PORT: String(ports[i]) }, starts: 0, crashes: [], planned: false, process: null, lastExit: null });
    launch(app);
  }
  return Object.fromEntries(await Promise.all(APPS.map(async (app) => [app, await waitHealthy(services.get(app).process)])));
}

async function createDatabase(serverUrl, name) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

const hasExited = (child) => child.exitCode !== null || child.signalCode !== null;

function rssBytes(pid) {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

/** Sends `signal` to a service and waits for its exit; it stays down until started again. */
async function signalService(app, signal) {
  const record = service(app);
  if (hasExited(record.process.child)) throw new StackError(`${app} is not running`);
  record.planned = true;
  const startedAt = Date.now();
  record.process.child.kill(signal);
  const exit = await Promise.race([record.process.exit, new Promise((resolve) => setTimeout(resolve, SERVICE_STOP_TIMEOUT_MS, null))]);
  if (exit === null) throw new StackError(`${app} did not exit within ${SERVICE_STOP_TIMEOUT_MS / 1000} s of ${signal}`);
  return { exit, ms: Date.now() - startedAt };
}

function infraControls(dirs, ports) {
  const entries = {};
  const starters = {
    postgres: async () => (entries.postgres = (await startPostgresCluster(processes, ports.postgres, dirs.postgres)).entry),
    redis: async () => (entries.redis = (await startRedisServer(processes, ports.redis, dirs.redis)).entry),
    s3: async () => (entries.s3 = (await startS3Server(processes, ports.s3, dirs.s3, BUCKET)).entry),
  };
  // PostgreSQL's fast shutdown (SIGINT) is what "stopped" means; the others die outright.
  const stopSignals = { postgres: 'SIGINT', redis: 'SIGKILL', s3: 'SIGKILL' };
  const running = (name) => {
    if (!entries[name] || entries[name].exited) throw new StackError(`${name} is not running`);
    return entries[name];
  };
  // Without root no disk of its own: the scenario that fills it says so and is skipped.
  const disk = canMountSmallDisk() ? mountSmallDisk(dirs.s3, S3_DISK_BYTES) : null;
  return {
    entries,
    disk,
    start: (name) => starters[name](),
    stop: async (name, signal = stopSignals[name]) => {
      const entry = running(name);
      // A frozen server could not act on the signal.
      freezeProcessTree(entry, 'SIGCONT');
      await processes.stop(entry, 30_000, signal);
    },
    freeze: (name) => freezeProcessTree(running(name), 'SIGSTOP'),
    thaw: (name) => freezeProcessTree(running(name), 'SIGCONT'),
    thawAll: () => Object.values(entries).forEach((entry) => !entry.exited && freezeProcessTree(entry, 'SIGCONT')),
    fillDisk: (full) => {
      if (!disk) throw new StackError('the S3 server has no disk of its own to fill: that needs root');
      if (full) disk.fill();
      else disk.free();
    },
  };
}

/** The levers the scenarios pull, for serveControl. */
function controlRoutes(state, infraControl) {
  return [
    ['GET', /^\/state$/, () => ({
      ...state,
      servers: Object.fromEntries(Object.entries(infraControl.entries).map(([name, entry]) => [name, { running: !entry.exited, exit: entry.exited ? String(entry.child.signalCode ?? entry.child.exitCode) : null }])),
      canFillDisk: infraControl.disk !== null,
      services: Object.fromEntries([...services.values()].map((s) => [s.app, { pid: s.process.child.pid, running: !hasExited(s.process.child), starts: s.starts, crashes: s.crashes, lastExit: s.lastExit }])),
    })],
    ['GET', /^\/rss$/, () => Object.fromEntries([...services.values()].map((s) => [s.app, rssBytes(s.process.child.pid)]))],
    ['GET', /^\/problems$/, (_match, _body, url) => problems.filter((p) => p.at >= Number(url.searchParams.get('since') ?? 0))],
    ...serviceRoutes({
      signal: signalService,
      start: async (app, { wait }) => {
        const started = launch(app);
        return { url: wait ? await waitHealthy(started) : await started.url };
      },
    }),
    ['POST', /^\/infra\/(postgres|redis|s3)\/stop$/, async ([, name], body) => (await infraControl.stop(name, body.signal), {})],
    ['POST', /^\/infra\/(postgres|redis|s3)\/start$/, async ([, name]) => (await infraControl.start(name), {})],
    ['POST', /^\/infra\/(postgres|redis|s3)\/freeze$/, ([, name]) => (infraControl.freeze(name), {})],
    ['POST', /^\/infra\/(postgres|redis|s3)\/thaw$/, ([, name]) => (infraControl.thaw(name), {})],
    ['POST', /^\/infra\/s3\/disk$/, (_match, body) => (infraControl.fillDisk(body.full === true), {})],
    ['POST', /^\/admin$/, async (_match, body) => {
      const { stdout } = await run(process.execPath, [appMain(body.app), 'admin', ...body.args], { env: service(body.app).env });
      return { secret: stdout.trimEnd().split('\n').at(-1) };
    }],
  ];
}

let infraControl = null;

async function main() {
  if (!process.argv[2]) throw new StackError('usage: controller.mjs <work directory>');
  const [pgPort, redisPort, s3Port, controlPort, ...servicePorts] = await freePorts(4 + APPS.length);
  const dirs = { postgres: path.join(workDir, 'postgres'), redis: path.join(workDir, 'redis'), s3: path.join(workDir, 's3') };
  mkdirSync(dirs.redis, { recursive: true });
  // As root the cluster runs as `postgres`, which must be able to reach its directory in here.
  chmodSync(workDir, 0o711);
  infraControl = infraControls(dirs, { postgres: pgPort, redis: redisPort, s3: s3Port });
  await Promise.all(['postgres', 'redis', 's3'].map((name) => infraControl.start(name)));
  const serverUrl = `postgres://postgres@127.0.0.1:${pgPort}`;
  await createDatabase(`${serverUrl}/postgres`, 'platform');
  const infra = { databaseUrl: `${serverUrl}/platform`, redisUrl: `redis://127.0.0.1:${redisPort}`, s3Endpoint: `http://127.0.0.1:${s3Port}`, bucket: BUCKET };
  log(`postgres, redis and s3 up: ${JSON.stringify(infra)}`);
  await ensureApertium(APPS);
  await buildApps(APPS);
  const env = serviceEnv(infra);
  await Promise.all(migratingApps(APPS).map((app) => runAppCommand(app, ['migrate'], env)));
  const urls = await startServices(env, servicePorts);
  const state = { urls, infra: { ...infra, cdnUrl: env.CDN_URL }, settings: { webhookRetrySchedule: env.WEBHOOK_RETRY_SCHEDULE } };
  const control = await serveControl(controlRoutes(state, infraControl), controlPort);
  console.log(JSON.stringify({ msg: 'faults stack ready', control, urls }));
}

async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  // A scenario that failed may have left a server frozen; a frozen one would not stop.
  infraControl?.thawAll();
  await Promise.all([...services.values()].map((s) => stopChild(s.process.child, s.app, SERVICE_STOP_TIMEOUT_MS)));
  await processes.stopAll((entry) => (entry.name === 'postgres' ? 30_000 : 10_000));
  infraControl?.disk?.unmount();
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => shutdown(0));

main().catch((error) => {
  console.error(error instanceof StackError ? error.message : (error?.stack ?? String(error)));
  shutdown(1);
});
