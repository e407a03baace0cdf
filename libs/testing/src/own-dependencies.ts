import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { pollUntil } from './poll-until';

const exec = promisify(execFile);

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A dependency of a test's own, which the test may stop and start again; never a shared one. */
export interface OwnDependency {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its data. */
  destroy(): Promise<void>;
}

function postgresBinaries(): string {
  const onPath = (process.env.PATH ?? '').split(':').find((dir) => existsSync(path.join(dir, 'pg_ctl')));
  if (onPath) return onPath;
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : [];
  if (!versions.length) throw new Error('PostgreSQL server binaries (initdb, pg_ctl) are not installed');
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}

/** Postgres refuses to run as root: as root, the cluster belongs to and runs as the postgres user. */
async function asPostgresUser(): Promise<{ run: (command: string, args: string[]) => Promise<unknown>; uid?: number; gid?: number }> {
  const bin = postgresBinaries();
  if (process.getuid?.() !== 0) return { run: (command, args) => exec(path.join(bin, command), args) };
  const [uid, gid] = await Promise.all([exec('id', ['-u', 'postgres']), exec('id', ['-g', 'postgres'])]).then((ids) => ids.map((id) => Number(id.stdout.trim())));
  return { run: (command, args) => exec('runuser', ['-u', 'postgres', '--', path.join(bin, command), ...args]), uid, gid };
}

/**
 * A throwaway Postgres cluster (initdb) on a free loopback port, with one database `platform`.
 * `stop` is a fast shutdown: open connections get 57P01, new ones are refused, as in an outage.
 */
export async function startOwnPostgres(): Promise<OwnDependency> {
  const { run, uid, gid } = await asPostgresUser();
  const dir = await mkdtemp(path.join(tmpdir(), 'own-postgres-'));
  if (uid !== undefined && gid !== undefined) await chown(dir, uid, gid);
  const data = path.join(dir, 'data');
  const port = await freePort();
  await run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () => run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']).then(() => undefined);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).then(() => undefined);
  await start();
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE platform');
  await admin.end();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/platform`,
    start,
    stop,
    destroy: async () => {
      await stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function answers(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** A redis-server of its own on a free loopback port, without persistence. */
export async function startOwnRedis(): Promise<OwnDependency> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await pollUntil(() => answers(url), Boolean, { timeoutMs: 10_000, what: 'redis-server to answer' });
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise((resolve) => {
      running.once('exit', resolve);
      running.kill('SIGTERM');
    });
  };
  await start();
  return { url, start, stop, destroy: stop };
}
