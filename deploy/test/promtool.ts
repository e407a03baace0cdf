import { execFileSync, spawnSync } from 'node:child_process';

type Tool = 'promtool' | 'amtool';

/** The first line of `<tool> --version` (promtool from Debian's prometheus, amtool from prometheus-alertmanager), or undefined when it is not installed. */
export function toolVersion(tool: Tool): string | undefined {
  try {
    return execFileSync(tool, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).split('\n')[0];
  } catch {
    return undefined;
  }
}

/** Runs the tool; a failure throws with everything it said. */
export function run(tool: Tool, ...args: string[]): string {
  const done = spawnSync(tool, args, { encoding: 'utf8' });
  if (done.status !== 0) throw new Error(`${tool} ${args.join(' ')} exited ${done.status}:\n${done.stdout}${done.stderr}`);
  return done.stdout;
}

export const promtool = (...args: string[]) => run('promtool', ...args);
export const amtool = (...args: string[]) => run('amtool', ...args);
