// Helpers shared by the local stack, the migration command and CI's infrastructure step.
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * Local state that survives restarts (s3rver objects, the sandbox key); git-ignored.
 * STACK_DATA_DIR moves it, so a second stack on other ports (the end-to-end run) keeps its own.
 */
export const DATA_DIR = process.env.STACK_DATA_DIR ? path.resolve(process.env.STACK_DATA_DIR) : path.join(ROOT, '.data');

export class StackError extends Error {}

const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
const COLORS = { red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36, gray: 90, bold: 1 };

export function paint(color, text) {
  return useColor ? `\x1b[${COLORS[color]}m${text}\x1b[0m` : text;
}

export function log(message) {
  console.log(`${paint('bold', '[stack]')} ${message}`);
}

export function warn(message) {
  console.log(`${paint('bold', '[stack]')} ${paint('yellow', message)}`);
}

/**
 * The npm registry's package `spec` unpacked into `dir`, which is kept between runs: `npm pack`
 * into a sibling folder, and the tarball's `package/` renamed to `dir` only once complete, so an
 * interrupted download is never taken for the package. Prints nothing; returns `dir`.
 */
export async function unpackedNpmPackage(spec, dir) {
  if (existsSync(path.join(dir, 'package.json'))) return dir;
  mkdirSync(path.dirname(dir), { recursive: true });
  const download = mkdtempSync(`${dir}.download-`);
  try {
    const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', download, spec]);
    await run('tar', ['-xzf', path.join(download, stdout.trim().split('\n').at(-1)), '-C', download]);
    rmSync(dir, { recursive: true, force: true });
    renameSync(path.join(download, 'package'), dir);
  } finally {
    rmSync(download, { recursive: true, force: true });
  }
  return dir;
}

export function ensureDataDir(...parts) {
  const dir = path.join(DATA_DIR, ...parts);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where a service bound to `host` answers locally: a wildcard address is reached over loopback. */
export const reachableHost = (host) => (!host || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host);

export function localUrl(host, port) {
  const reachable = reachableHost(host);
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** Credentials never reach the terminal: the password of a URL is masked for display. */
export function displayUrl(url) {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString().replace(/\/$/, '');
}

/** One-shot commands still running; interrupted together when the stack is stopped mid-setup. */
const running = new Set();

export function interruptRunningCommands() {
  for (const child of running) child.kill('SIGTERM');
}

/**
 * Runs a command to completion. Output is captured (and attached to the error on failure) unless
 * `inherit` streams it to the terminal. Resolves on exit rather than on stream close, because
 * commands that start daemons can leave the daemon holding the inherited pipes.
 */
export function run(command, args, { env = process.env, inherit = false, allowFailure = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', inherit ? 'inherit' : 'pipe', inherit ? 'inherit' : 'pipe'] });
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => (stdout += chunk));
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => {
      running.delete(child);
      reject(new StackError(`${command}: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      running.delete(child);
      // Give buffered output a moment to arrive, then stop listening to pipes a daemon may keep open.
      setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        const result = { code: code ?? 1, stdout, stderr };
        if (code === 0 || allowFailure) return resolve(result);
        const output = `${stdout}${stderr}`.trim();
        const reason = signal ? `was stopped by ${signal}` : `exited with ${code}`;
        reject(new StackError(`${[command, ...args].join(' ')} ${reason}${output ? `:\n${output}` : ''}`));
      }, 100);
    });
  });
}

export function commandExists(name) {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/sbin'];
  return dirs.some((dir) => {
    try {
      accessSync(path.join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

export const isRoot = () => process.getuid?.() === 0;

let aptUpdated = false;

/** Installs Debian packages; only root can, anyone else is told what to install. */
export async function aptInstall(packages) {
  if (!isRoot() || !commandExists('apt-get')) {
    throw new StackError(`Please install ${packages.join(', ')} (or point the stack at running servers through environment variables).`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  log(`installing ${packages.join(', ')} with apt-get`);
  if (!aptUpdated) {
    await run('apt-get', ['update', '-q'], { env, inherit: true });
    aptUpdated = true;
  }
  await run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...packages], { env, inherit: true });
}

export function canConnect(host, port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Polls `check` until it returns a truthy value; throws a StackError naming `what` on timeout,
 * or as soon as `signal` is aborted.
 */
export async function waitUntil(check, { what, timeoutMs = 30_000, intervalMs = 250, signal }) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (signal?.aborted) throw new StackError(`interrupted while waiting for ${what}`);
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new StackError(`${what} did not happen within ${timeoutMs / 1000} s`);
    await sleep(intervalMs);
  }
}

/** Runs a script of this folder as a command line tool, printing a StackError without a stack trace. */
export function runMain(main) {
  main().then(
    () => process.exit(0),
    (error) => {
      console.error(paint('red', error instanceof StackError ? error.message : (error?.stack ?? String(error))));
      process.exit(1);
    },
  );
}
