import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { testAppEnv } from './test-env';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The last line of stdout: where operator commands print the secret they created. */
  lastLine: string;
}

/** Runs a command to its end and collects its output. */
export function runCommand(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, options);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, lastLine: stdout.trimEnd().split('\n').at(-1) ?? '' }));
  });
}

/** Runs `node <args>` from the workspace root against the test environment (plus `env`) and collects its output. */
export function runNode(args: string[], env: Record<string, string> = {}): Promise<CommandRun> {
  return runCommand(process.execPath, args, { cwd: root, env: testAppEnv(env) });
}

/** An operator mistake: exit code 1, nothing on stdout, the message on stderr without a stack. */
export function expectOperatorMistake(run: CommandRun, message: RegExp): void {
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(message);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}
