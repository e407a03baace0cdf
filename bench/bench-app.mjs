// What the benchmarks share: apps built, migrated, given a credential by their own admin command
// and started until /health answers, a database and a Redis database of their own, an S3 server
// of their own, and a process's memory.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createLocalS3 } from '../tools/stack/local-s3.mjs';
import { freePorts } from '../tools/stack/own-infra.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const freePort = async () => (await freePorts(1))[0];

/** Each app is built once per run, however many processes of it a benchmark starts. */
const builds = new Map();

/**
 * Bundles `app` into dist/apps/<app>/main.js; returns that path, relative to the root. Not
 * synchronous, so the caller's progress messages keep coming while it builds.
 */
export async function buildBenchApp(app) {
  if (!builds.has(app)) builds.set(app, promisify(execFile)(process.execPath, ['tools/build.mjs', app], { cwd: root }));
  await builds.get(app);
  return `dist/apps/${app}/main.js`;
}

/**
 * What the container images give every service besides its configuration: the Node flags of the
 * runtime's ENTRYPOINT and the C library's variables (docker/Dockerfile), so that benchmarks
 * measure the services as they are shipped.
 */
export function productionRuntime() {
  const dockerfile = readFileSync(path.join(root, 'docker/Dockerfile'), 'utf8');
  const entrypoint = JSON.parse(/^ENTRYPOINT (\["node".*\])$/m.exec(dockerfile)[1]);
  const env = Object.fromEntries([...dockerfile.matchAll(/\b(MALLOC_[A-Z_]+)=(\d+)/g)].map(([, name, value]) => [name, value]));
  return { nodeArgs: entrypoint.slice(1, -1), env };
}

/**
 * Starts a built `app` on a free port with `env` and waits until /health answers, with the Node
 * flags and C library settings of the container images unless `nodeArgs` says otherwise.
 */
export async function spawnBenchApp(app, { env, nodeArgs, extraNodeArgs = [] }) {
  const runtime = productionRuntime();
  const appEnv = { ...process.env, ...runtime.env, PORT: String(await freePort()), LOG_LEVEL: 'warn', ...env };
  const child = spawn(process.execPath, [...(nodeArgs ?? runtime.nodeArgs), ...extraNodeArgs, `dist/apps/${app}/main.js`], { cwd: root, env: appEnv, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${appEnv.PORT}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${app} exited with code ${child.exitCode} while starting`);
    const healthy = await fetch(`${url}/health`).then((r) => r.ok, () => false);
    if (healthy) return { child, url, stop: () => stopChild(child) };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error(`${app} did not become healthy`);
}

/**
 * Starts `app` on a free port. `setup` are admin commands run first (e.g. creating the account),
 * `admin` the admin command's arguments that print the credential last (`secret`); `migrate:
 * false` skips the migrations a process started earlier on the same database already ran;
 * `extraNodeArgs` go to Node besides the images' flags (`--cpu-prof`).
 */
export async function startBenchApp(app, { env, admin, setup = [], migrate = true, nodeArgs, extraNodeArgs }) {
  const main = await buildBenchApp(app);
  if (migrate) execFileSync(process.execPath, [main, 'migrate'], { cwd: root, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: 'ignore' });
  for (const command of setup) runAdmin(app, env, ...command);
  const secret = admin && runAdmin(app, env, ...admin);
  return { ...(await spawnBenchApp(app, { env, nodeArgs, extraNodeArgs })), secret };
}

/** Migrates the translation database at `databaseUrl`, for apps without a migrate command of their own. */
export async function migrateTranslationDatabase(databaseUrl) {
  execFileSync(process.execPath, [await buildBenchApp('translate-api'), 'migrate'], { cwd: root, env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl }, stdio: 'ignore' });
}

/** Runs the built app's admin command with `args`; returns the last line it printed (a credential). */
export function runAdmin(app, env, ...args) {
  return execFileSync(process.execPath, [`dist/apps/${app}/main.js`, 'admin', ...args], { cwd: root, env: { ...process.env, LOG_LEVEL: 'warn', ...env } })
    .toString()
    .trim()
    .split('\n')
    .at(-1);
}

/** SIGTERM, and the exit awaited, so that a profile or the last log lines are written. */
async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const postgresUrl = (database) => Object.assign(new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/platform'), { pathname: `/${database}` }).toString();

/** A database of the benchmark's own (`url`, `query`), dropped by `drop()`; apps migrate it. */
export async function createBenchDatabase(prefix) {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = async (sql) => {
    const client = new pg.Client({ connectionString: postgresUrl('postgres') });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const pool = new pg.Pool({ connectionString: postgresUrl(name), max: 4 });
  return {
    url: postgresUrl(name),
    query: async (text, values) => (await pool.query(text, values)).rows,
    drop: async () => {
      await pool.end();
      await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

/**
 * One of Redis' numbered databases 2 to 15, claimed with the key the tests claim theirs with, so
 * no test's worker takes the benchmark's jobs; `release()` empties and frees it.
 */
export async function leaseBenchRedis() {
  const base = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redis = new Redis(base);
  const token = randomBytes(8).toString('hex');
  try {
    for (let db = 2; db <= 15; db++) {
      const lease = `test:redis-database-lease:${db}`;
      if ((await redis.set(lease, token, 'PX', 30 * 60_000, 'NX')) !== 'OK') continue;
      const url = Object.assign(new URL(base), { pathname: `/${db}` }).toString();
      return {
        url,
        release: async () => {
          const owner = new Redis(base);
          const own = new Redis(url);
          try {
            await own.flushdb();
            if ((await owner.get(lease)) === token) await owner.del(lease);
          } finally {
            owner.disconnect();
            own.disconnect();
          }
        },
      };
    }
    throw new Error('every Redis database from 2 to 15 is leased');
  } finally {
    redis.disconnect();
  }
}

/** The stack's s3rver on a free port and a temporary directory, so the stack's bucket is left alone. */
export async function startBenchS3(bucket) {
  const directory = mkdtempSync(path.join(tmpdir(), 'bench-s3-'));
  const server = createLocalS3({ directory, address: '127.0.0.1', port: await freePort(), buckets: [bucket] });
  const { address, port } = await server.run();
  return {
    endpoint: `http://${address}:${port}`,
    stop: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * Makes sure `binary` is there, installing Debian's `pkg` with apt-get when it is missing and
 * this process may; the reason it is not there otherwise.
 */
export function ensureDebianPackage(pkg, binary) {
  if (!existsSync(binary) && process.getuid?.() === 0) {
    console.log(`${pkg} is missing: installing it with apt-get`);
    try {
      execFileSync('apt-get', ['install', '-y', '--no-install-recommends', pkg], { stdio: 'ignore' });
    } catch {
      return { missing: `apt-get could not install ${pkg}` };
    }
  }
  return existsSync(binary) ? {} : { missing: `${pkg} is not installed (apt-get install ${pkg} as root)` };
}

/** A process's resident memory in MiB (`VmRSS` now, `VmHWM` its peak), where Linux tells it. */
export function rssMiB(pid, field = 'VmRSS') {
  try {
    const kib = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return kib ? kib / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Runs `work` while reading `pid`'s resident memory every 50 ms; its result and the highest reading in MiB. */
export async function peakRssDuring(pid, work) {
  let peak = rssMiB(pid) ?? 0;
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid) ?? 0)), 50);
  try {
    const result = await work();
    return { result, peak: Math.max(peak, rssMiB(pid) ?? 0) };
  } finally {
    clearInterval(timer);
  }
}

/** Apertium's stages, grouped as one in CPU shares: a mode runs a dozen of them. */
const APERTIUM_STAGE = /^(apertium-|lt-proc|lrx-proc|cg-proc|hfst-proc)/;
const KERNEL_THREAD = /^(kworker|ksoftirqd|kdamond|rcu_|kswapd|migration)/;
// Linux reports process times in clock ticks of 1/100 s on every architecture Node runs on.
const TICKS_PER_S = 100;

/** CPU seconds every process on the machine has used so far, by pid, with its command name. */
function cpuSnapshot() {
  const snapshot = new Map();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      snapshot.set(Number(pid), { comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), seconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S });
    } catch {
      // The process ended between listing and reading.
    }
  }
  return snapshot;
}

/** `shares` as one line: "translate-api 58%, postgres 33%, ...". */
/** Seconds to run `run` on every one of `jobs`, `concurrency` of them in flight, in order. */
export async function secondsInFlight(jobs, concurrency, run) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < jobs.length) await run(jobs[next++]);
    }),
  );
  return (performance.now() - started) / 1000;
}

export const formatShares = (shares) => shares.map(({ name, percent }) => `${name} ${percent.toFixed(0)}%`).join(', ');

/**
 * Where the machine's CPU went over one or more stretches of work, added up: `during(work)` each,
 * then `shares()`. `names` names pids of interest (the service, the load generator); the other
 * processes go by command, Apertium's stages and the kernel's threads each as one group.
 */
export class CpuWatch {
  #seconds = 0;
  /** CPU seconds by group. */
  #used = new Map();

  constructor(names = {}) {
    this.names = names;
  }

  async during(work) {
    const before = cpuSnapshot();
    const started = performance.now();
    const result = await work();
    this.#seconds += (performance.now() - started) / 1000;
    for (const [pid, { comm, seconds }] of cpuSnapshot()) {
      const delta = seconds - (before.get(pid)?.seconds ?? 0);
      if (delta <= 0) continue;
      const group = this.names[pid] ?? (APERTIUM_STAGE.test(comm) ? 'apertium stages' : KERNEL_THREAD.test(comm) ? 'kernel threads' : comm);
      this.#used.set(group, (this.#used.get(group) ?? 0) + delta);
    }
    return result;
  }

  /** % of one core per group over all stretches (2 cores: up to 200 %), largest first, from 1 % up. */
  shares() {
    return [...this.#used]
      .map(([name, used]) => ({ name, percent: (100 * used) / this.#seconds }))
      .filter(({ percent }) => percent >= 1)
      .sort((a, b) => b.percent - a.percent);
  }
}
