import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import readline from 'node:readline';
import type { ImageLayout } from './image-layout.builder';

export interface ContainerRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Where operator commands print the secret they created. */
  lastLine: string;
}

export interface RunningContainer {
  /** The URL of the service's "listening" log line; rejects when the process exits first. */
  listening: Promise<string>;
  /** SIGTERM, as `docker stop` sends, and the exit code. */
  stop(): Promise<number | null>;
}

/**
 * A command line of the image (its ENTRYPOINT and arguments) as a process of this machine, in the
 * laid-out WORKDIR: `node` is the node running the tests, absolute paths of the image are mapped.
 */
function launch(layout: ImageLayout, argv: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const local = (arg: string) => (arg.startsWith('/') && existsSync(layout.local(arg)) ? layout.local(arg) : arg);
  const [command, ...args] = argv.map((arg, i) => (i === 0 && arg === 'node' ? process.execPath : local(arg)));
  return spawn(command, args, { cwd: layout.workdir, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs a one-shot command (migrations, admin, the health check) to its end. */
export function runInContainer(layout: ImageLayout, argv: string[], env: NodeJS.ProcessEnv): Promise<ContainerRun> {
  return new Promise((resolve, reject) => {
    const child = launch(layout, argv, env);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, lastLine: stdout.trimEnd().split('\n').at(-1) ?? '' }));
  });
}

/** Starts a service through the image's command line; `service` names its "listening" log line. */
export function startContainer(layout: ImageLayout, argv: string[], env: NodeJS.ProcessEnv, service: string): RunningContainer {
  const child = launch(layout, argv, env);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const entry = line.startsWith('{') ? JSON.parse(line) : {};
      if (entry.msg === `${service} listening`) resolve(entry.url);
    });
    void exit.then((code) => reject(new Error(`${service} exited with ${code} before listening: ${stderr}`)));
  });
  listening.catch(() => undefined);
  return {
    listening,
    stop: () => {
      child.kill('SIGTERM');
      return exit;
    },
  };
}
