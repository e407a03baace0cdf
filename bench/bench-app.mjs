// What the benchmarks share: apps built, migrated, given a credential by their own admin command
// and started until /health answers, a database and a Redis database of their own, an S3 server
// of their own, and a process's memory.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createLocalS3 } from '../tools/stack/local-s3.mjs';
import { freePorts } from '../tools/stack/own-infra.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const freePort = async () => (await freePorts(1))[0];

const built = new Set();

/**
 * Starts `app` (built once per run) on a free port and waits for /health. `admin` are the admin
 * command's arguments that print the credential last; `migrate: false` skips the migrations a
 * process started earlier on the same database already ran; `nodeArgs` go to Node (`--cpu-prof`).
 */
export async function startBenchApp(app, { env, admin, migrate = true, nodeArgs = [] }) {
  const main = buildBenchApp(app);
  const appEnv = { ...process.env, PORT: String(await freePort()), LOG_LEVEL: 'warn', ...env };
  if (migrate) execFileSync(process.execPath, [main, 'migrate'], { cwd: root, env: appEnv, stdio: 'ignore' });
  const secret = admin && runAdmin(app, appEnv, ...admin);
  const child = spawn(process.execPath, [...nodeArgs, main], { cwd: root, env: appEnv, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${appEnv.PORT}`;
  for (let i = 0; i < 150; i++) {
    const healthy = await fetch(`${url}/health`).then((r) => r.ok, () => false);
    if (healthy) return { child, url, secret, stop: () => stopChild(child) };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error(`${app} did not become healthy`);
}

/** Builds `app` once per run; returns its bundle. */
function buildBenchApp(app) {
  if (!built.has(app)) {
    execFileSync(process.execPath, ['tools/build.mjs', app], { cwd: root, stdio: 'ignore' });
    built.add(app);
  }
  return `dist/apps/${app}/main.js`;
}

/** Migrates the translation database at `databaseUrl`, for apps without a migrate command of their own. */
export function migrateTranslationDatabase(databaseUrl) {
  execFileSync(process.execPath, [buildBenchApp('translate-api'), 'migrate'], { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: 'ignore' });
}

/** Runs the built app's admin command with `args`; returns the last line it printed (a credential). */
export function runAdmin(app, env, ...args) {
  return execFileSync(process.execPath, [`dist/apps/${app}/main.js`, 'admin', ...args], { cwd: root, env: { ...process.env, ...env } }).toString().trim().split('\n').at(-1);
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

/** A process's resident memory in MiB (`VmRSS` now, `VmHWM` its peak), where Linux tells it. */
export function rssMiB(pid, field = 'VmRSS') {
  try {
    const kib = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return kib ? kib / 1024 : undefined;
  } catch {
    return undefined;
  }
}
