import { followService, runCommand, type CommandRun } from '@platform/testing';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { ImageLayout } from './image-layout.builder';

export type ContainerRun = CommandRun;

export interface RunningContainer {
  /** The URL of the service's "listening" log line; rejects when the process exits first. */
  listening: Promise<string>;
  /** SIGTERM, as `docker stop` sends, and the exit code. */
  stop(): Promise<number | null>;
}

/**
 * A command line of the image (its ENTRYPOINT and arguments) as one of this machine, run in the
 * laid-out WORKDIR: `node` is the node running the tests, absolute paths of the image are mapped.
 */
function localCommand(layout: ImageLayout, argv: string[]): [string, string[]] {
  const local = (arg: string) => (arg.startsWith('/') && existsSync(layout.local(arg)) ? layout.local(arg) : arg);
  const [command, ...args] = argv.map((arg, i) => (i === 0 && arg === 'node' ? process.execPath : local(arg)));
  return [command, args];
}

/** Runs a one-shot command (migrations, admin, the health check) to its end. */
export function runInContainer(layout: ImageLayout, argv: string[], env: NodeJS.ProcessEnv): Promise<ContainerRun> {
  const [command, args] = localCommand(layout, argv);
  return runCommand(command, args, { cwd: layout.workdir, env });
}

/** Starts a service through the image's command line; `service` names its "listening" log line. */
export function startContainer(layout: ImageLayout, argv: string[], env: NodeJS.ProcessEnv, service: string): RunningContainer {
  const [command, args] = localCommand(layout, argv);
  const child = spawn(command, args, { cwd: layout.workdir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const { listening, exit } = followService(child, service);
  return {
    listening,
    stop: async () => {
      child.kill('SIGTERM');
      return (await exit).code;
    },
  };
}
