import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** A dependency of a test's own, which the test may stop and start again; never a shared one. */
export interface OwnDependency {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops every process of it with SIGSTOP: connections stay open, nothing answers. */
  freeze(): void;
  /** Lets a frozen one go on (SIGCONT). */
  thaw(): void;
  /** Stops it for good and removes its data. */
  destroy(): Promise<void>;
}

/** The parts of the stack's own-server helpers used here (tools/stack/own-infra.mjs). */
interface ProcessEntry {
  exited: boolean;
}
interface ProcessSet {
  stop(entry: ProcessEntry, timeoutMs: number, signal?: NodeJS.Signals): Promise<void>;
}
interface OwnInfra {
  ProcessSet: new () => ProcessSet;
  freePorts(count: number): Promise<number[]>;
  startPostgresCluster(processes: ProcessSet, port: number, dir: string): Promise<{ url: string; entry: ProcessEntry }>;
  startRedisServer(processes: ProcessSet, port: number, dir: string): Promise<{ url: string; entry: ProcessEntry }>;
  freezeProcessTree(entry: ProcessEntry, signal: 'SIGSTOP' | 'SIGCONT'): void;
}

/** The servers `npm run e2e` and `npm run faults` start for themselves, so tests start them alike. */
const OWN_INFRA = new URL('../../../tools/stack/own-infra.mjs', import.meta.url).href;

/**
 * A server of the test's own on a free loopback port, with its data in a fresh temp directory:
 * `launch` (re)starts it there; stopping sends `stopSignal`.
 */
async function ownServer(
  kind: string,
  stopSignal: NodeJS.Signals,
  launch: (infra: OwnInfra, processes: ProcessSet, port: number, dir: string) => Promise<{ url: string; entry: ProcessEntry }>,
): Promise<OwnDependency> {
  const infra = (await import(OWN_INFRA)) as OwnInfra;
  const processes = new infra.ProcessSet();
  const dir = await mkdtemp(path.join(tmpdir(), `own-${kind}-`));
  const [port] = await infra.freePorts(1);
  let running = await launch(infra, processes, port, dir);
  const thaw = () => infra.freezeProcessTree(running.entry, 'SIGCONT');
  // A frozen server cannot act on the stop signal.
  const stop = async () => {
    if (!running.entry.exited) thaw();
    await processes.stop(running.entry, 30_000, stopSignal);
  };
  return {
    url: running.url,
    stop,
    freeze: () => infra.freezeProcessTree(running.entry, 'SIGSTOP'),
    thaw,
    start: async () => {
      if (running.entry.exited) running = await launch(infra, processes, port, dir);
    },
    destroy: async () => {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A throwaway Postgres cluster (initdb) on a free loopback port, with one database `platform`.
 * `stop` is a fast shutdown (SIGINT): open connections get 57P01, new ones are refused, as in an
 * outage.
 */
export async function startOwnPostgres(): Promise<OwnDependency> {
  const postgres = await ownServer('postgres', 'SIGINT', (infra, processes, port, dir) => infra.startPostgresCluster(processes, port, dir));
  const server = new URL(postgres.url);
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  await admin.query('CREATE DATABASE platform');
  await admin.end();
  server.pathname = '/platform';
  return { ...postgres, url: server.toString() };
}

/** A redis-server of its own on a free loopback port, without persistence. */
export function startOwnRedis(): Promise<OwnDependency> {
  return ownServer('redis', 'SIGTERM', (infra, processes, port, dir) => infra.startRedisServer(processes, port, dir));
}

/** A loopback port nothing listens on, for a process a test starts that takes its port as told. */
export async function freePort(): Promise<number> {
  const infra = (await import(OWN_INFRA)) as OwnInfra;
  const [port] = await infra.freePorts(1);
  return port;
}
