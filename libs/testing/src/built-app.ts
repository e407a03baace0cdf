import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface BuiltApp {
  child: ChildProcess;
  /** The URL from the app's "listening" log line; rejects when the process exits first. */
  listening: Promise<string>;
  exit: Promise<Exit>;
  stderr(): string;
  /** Its log lines so far. */
  stdout(): string;
}

/** Bundles an app exactly as `nx build` does, into dist/apps/<app>. */
export async function buildApp(app: string): Promise<void> {
  await promisify(execFile)(process.execPath, ['tools/build.mjs', app], { cwd: root });
}

/** Runs a built app the way a deployment does (its own process, JSON logs on stdout). */
export function startBuiltApp(app: string, env: NodeJS.ProcessEnv): BuiltApp {
  const child = spawn(process.execPath, [path.join(root, 'dist/apps', app, 'main.js')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  return followService(child, app);
}

/** Follows a service's process (stdout and stderr piped): the URL of its "listening" log line, its exit, its stderr. */
export function followService(child: ChildProcess, service: string): BuiltApp {
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exit = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const listening = new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      stdout += `${line}\n`;
      const entry = line.startsWith('{') ? JSON.parse(line) : {};
      if (entry.msg === `${service} listening`) resolve(entry.url);
    });
    void exit.then(({ code }) => reject(new Error(`${service} exited with ${code} before listening: ${stderr}`)));
  });
  // A process expected to fail never listens; only a test that awaits `listening` cares.
  listening.catch(() => undefined);
  return { child, exit, listening, stderr: () => stderr, stdout: () => stdout };
}
