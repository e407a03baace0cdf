// What the benchmarks share: one app built, migrated, given a credential by its own
// admin command, and started until /health answers, an S3 server of their own, and a process's
// memory.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createLocalS3 } from '../tools/stack/local-s3.mjs';
import { freePorts } from '../tools/stack/own-infra.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const freePort = async () => (await freePorts(1))[0];

/**
 * Bundles `app` into dist/apps/<app>/main.js; returns that path, relative to the root. Not
 * synchronous, so the caller's progress messages keep coming while it builds.
 */
export async function buildBenchApp(app) {
  await promisify(execFile)(process.execPath, ['tools/build.mjs', app], { cwd: root });
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
export async function spawnBenchApp(app, { env, nodeArgs }) {
  const runtime = productionRuntime();
  const appEnv = { ...process.env, ...runtime.env, PORT: String(await freePort()), LOG_LEVEL: 'warn', ...env };
  const child = spawn(process.execPath, [...(nodeArgs ?? runtime.nodeArgs), `dist/apps/${app}/main.js`], { cwd: root, env: appEnv, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${appEnv.PORT}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${app} exited with code ${child.exitCode} while starting`);
    const healthy = await fetch(`${url}/health`).then((r) => r.ok, () => false);
    if (healthy) return { child, url };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error(`${app} did not become healthy`);
}

/**
 * Starts `app` on a free port; `admin` are the admin command's arguments that print the
 * credential last, `setup` admin commands run before it (e.g. creating the account).
 */
export async function startBenchApp(app, { env, admin, setup = [], nodeArgs }) {
  const main = await buildBenchApp(app);
  const commandEnv = { ...process.env, LOG_LEVEL: 'warn', ...env };
  execFileSync(process.execPath, [main, 'migrate'], { cwd: root, env: commandEnv, stdio: 'ignore' });
  for (const command of setup) execFileSync(process.execPath, [main, 'admin', ...command], { cwd: root, env: commandEnv, stdio: 'ignore' });
  const secret = execFileSync(process.execPath, [main, 'admin', ...admin], { cwd: root, env: commandEnv }).toString().trim().split('\n').at(-1);
  return { ...(await spawnBenchApp(app, { env, nodeArgs })), secret };
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
