// Servers a run starts for itself on free loopback ports, so its stack never meets the shared
// ones or a developer's `npm start`: redis-server, s3rver and a PostgreSQL cluster of its own.
// Used by `npm run e2e` and `npm run faults`, which also stop and restart them on purpose.
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { canConnect, isRoot, ROOT, sleep, StackError, waitUntil } from './common.mjs';

/** Free TCP ports on loopback, all held open at once so none is handed out twice. */
export async function freePorts(count) {
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

/**
 * The processes a run started, stopped again on the way out in reverse order of starting.
 * Each entry is `{ name, child, exit, exited }`; `exit` resolves to the signal or exit code.
 */
export class ProcessSet {
  entries = [];
  /** Set once stopAll has begun: nothing new is started after that. */
  stopping = null;

  start(name, command, args, { env = process.env, output, uid, gid } = {}) {
    if (this.stopping) throw new StackError(`stopping: ${name} is not started`);
    // Its own process group: a Ctrl-C in the terminal reaches the run only, which stops them in order.
    const child = spawn(command, args, { cwd: ROOT, env, detached: true, uid, gid, stdio: ['ignore', output ?? 'ignore', output ?? 'ignore'] });
    const exit = new Promise((resolve) => {
      child.once('exit', (code, signal) => resolve(signal ?? code));
      // A command that could not be started (ENOENT) may never emit 'exit'.
      child.once('error', (error) => resolve(error.code));
    });
    const entry = { name, child, exit, exited: false };
    exit.then(() => (entry.exited = true));
    this.entries.push(entry);
    return entry;
  }

  /** SIGTERM (or `signal`), then SIGKILL to its whole group after `timeoutMs`. */
  async stop(entry, timeoutMs, signal = 'SIGTERM') {
    if (!entry.exited) {
      entry.child.kill(signal);
      const graceful = await Promise.race([entry.exit.then(() => true), sleep(timeoutMs).then(() => false)]);
      if (!graceful) {
        console.log(`[stack] ${entry.name} did not stop within ${timeoutMs / 1000} s; killing it`);
        try {
          process.kill(-entry.child.pid, 'SIGKILL');
        } catch {
          // Gone meanwhile.
        }
        await entry.exit;
      }
    }
    this.entries = this.entries.filter((other) => other !== entry);
  }

  stopAll(timeoutFor = () => 10_000) {
    this.stopping ??= (async () => {
      for (const entry of [...this.entries].reverse()) await this.stop(entry, timeoutFor(entry));
    })();
    return this.stopping;
  }
}

/** The processes descending from `pid`, read from /proc (Linux). */
function descendants(pid) {
  const parents = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name (in parentheses) may hold spaces; the parent's pid is the second field after it.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  return tree.slice(1);
}

/**
 * Freezes (SIGSTOP) or thaws (SIGCONT) a server started here with all its processes: a server
 * that hangs instead of refusing. Its connections stay open and the kernel still accepts new
 * ones, but nothing answers. PostgreSQL's backends each lead a session of their own, so the
 * process group would miss them. The server's own process is frozen first and thawed last, so
 * it starts no process that is left out.
 */
export function freezeProcessTree(entry, signal) {
  if (entry.exited) throw new StackError(`${entry.name} is not running`);
  const kill = (pid) => {
    try {
      process.kill(pid, signal);
    } catch {
      // Ended meanwhile.
    }
  };
  if (signal === 'SIGSTOP') kill(entry.child.pid);
  for (const pid of descendants(entry.child.pid)) kill(pid);
  if (signal === 'SIGCONT') kill(entry.child.pid);
}

/** Polls `check` until it holds, giving up when `entry` exits first. */
export function waitFor(what, check, entry, timeoutMs) {
  return waitUntil(
    async () => {
      if (entry.exited) throw new StackError(`${entry.name} exited while waiting for ${what}`);
      return check();
    },
    { what, timeoutMs },
  );
}

/** A redis-server without persistence on `port`, its working files in `dir`; resolves to its URL. */
export async function startRedisServer(processes, port, dir) {
  const redis = processes.start('redis-server', 'redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir]);
  await waitFor('redis-server listening', () => canConnect('127.0.0.1', port), redis, 10_000);
  return { url: `redis://127.0.0.1:${port}`, entry: redis };
}

/** s3rver with `bucket`, through the stack's own s3rver script; objects stay in `dir` across restarts. */
export async function startS3Server(processes, port, dir, bucket = 'images') {
  const s3 = processes.start('s3rver', process.execPath, [path.join(ROOT, 'tools/stack/s3-server.mjs'), dir, '127.0.0.1', String(port), bucket]);
  await waitFor('s3rver listening', () => canConnect('127.0.0.1', port), s3, 15_000);
  return { endpoint: `http://127.0.0.1:${port}`, entry: s3 };
}

/** The newest PostgreSQL server binaries installed (Debian keeps them out of PATH). */
function postgresBinDir() {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(path.join(base, v, 'bin/postgres'))) : [];
  const [newest] = versions.sort((a, b) => Number(b) - Number(a));
  if (!newest) throw new StackError(`no PostgreSQL server binaries under ${base}; install postgresql`);
  return path.join(base, newest, 'bin');
}

/** PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` OS user. */
function clusterOwner() {
  if (!isRoot()) return {};
  const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * A PostgreSQL cluster of its own in `dir` (created with initdb on the first call), listening on
 * 127.0.0.1:`port` with trust authentication for `postgres`. Returns its server URL (database
 * `postgres`) and the process entry; calling it again on the same `dir` restarts the cluster.
 */
export async function startPostgresCluster(processes, port, dir) {
  const bin = postgresBinDir();
  const owner = clusterOwner();
  const data = path.join(dir, 'data');
  if (!existsSync(data)) {
    mkdirSync(dir, { recursive: true });
    if (owner.uid !== undefined) chownSync(dir, owner.uid, owner.gid);
    const initdb = processes.start('initdb', path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync'], { ...owner, output: 'pipe' });
    let output = '';
    initdb.child.stdout.on('data', (chunk) => (output += chunk));
    initdb.child.stderr.on('data', (chunk) => (output += chunk));
    if ((await initdb.exit) !== 0) throw new StackError(`initdb failed:\n${output}`);
  }
  const postgres = processes.start(
    'postgres',
    path.join(bin, 'postgres'),
    ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=200'],
    { ...owner },
  );
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await waitFor('postgres accepting connections', () => acceptsConnections(port), postgres, 30_000);
  return { url, entry: postgres };
}

/** Listening is not enough: during start-up the server refuses logins for a while. */
async function acceptsConnections(port) {
  if (!(await canConnect('127.0.0.1', port))) return false;
  const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`, connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The resolved path of vitest's command line entry. */
export function vitestBin() {
  return path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
}

/** CI keeps no temporary files: the end of a stack's output goes to the terminal. */
function printTail(file, lines, prefix) {
  if (!existsSync(file)) return;
  const tail = readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines);
  console.error(`${prefix} last lines of the stack's output:\n${tail.join('\n')}`);
}

/**
 * The body of `npm run e2e` and `npm run faults`: `run(workDir, logFile)` starts a stack through
 * `processes` and resolves to the suite's exit code. Whatever happens (a failure, Ctrl-C,
 * SIGTERM) everything in `processes` is stopped again; the work directory, holding the stack's
 * output, is kept when the suite failed. Exits the process with the suite's code.
 */
export async function runOnOwnStack(name, processes, { stopTimeoutFor, run }) {
  const log = (message) => console.log(`[${name}] ${message}`);
  const workDir = mkdtempSync(path.join(os.tmpdir(), `platform-${name}-`));
  const logFile = path.join(workDir, 'stack.log');
  let cleaning = null;
  const cleanUp = (keepWorkDir) => {
    cleaning ??= (async () => {
      await processes.stopAll(stopTimeoutFor);
      if (keepWorkDir) log(`kept ${workDir} (stack output and data)`);
      else rmSync(workDir, { recursive: true, force: true });
    })();
    return cleaning;
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (cleaning) return;
      log(`${signal}: stopping the stack`);
      cleanUp(false).then(() => process.exit(128 + os.constants.signals[signal]));
    });
  }
  const startedAt = Date.now();
  let code = 1;
  try {
    code = await run(workDir, logFile);
  } catch (error) {
    if (!cleaning) {
      console.error(`[${name}] ${error instanceof StackError ? error.message : (error?.stack ?? error)}`);
      printTail(logFile, 60, `[${name}]`);
    }
  }
  if (cleaning) return;
  log('stopping the stack');
  await cleanUp(code !== 0);
  log(`${code === 0 ? 'passed' : 'failed'} in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  process.exit(code);
}
