import { runCommand } from '@platform/testing';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * Runs an admin command through `prefix` (a shell command such as `node tools/admin.mjs` or
 * `docker compose ... exec -T translate-api node main.js admin`) from the workspace root and
 * returns the secret it prints alone on its last line of stdout.
 */
export async function runAdmin(prefix: string, args: string[]): Promise<string> {
  const command = `${prefix} ${args.map(quote).join(' ')}`;
  const run = await runCommand('/bin/sh', ['-c', command], { cwd: root, env: process.env });
  const secret = run.lastLine.trim();
  if (run.code === 0 && secret) return secret;
  throw new Error(`${command} exited with ${run.code}:\n${run.stdout}${run.stderr}`);
}
