import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * Runs an admin command through `prefix` (a shell command such as `node tools/admin.mjs` or
 * `docker compose ... exec -T translate-api node main.js admin`) from the workspace root and
 * returns the secret it prints alone on its last line of stdout.
 */
export function runAdmin(prefix: string, args: string[]): Promise<string> {
  const command = `${prefix} ${args.map(quote).join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn(command, { cwd: root, env: process.env, shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const secret = stdout.trimEnd().split('\n').at(-1)?.trim();
      if (code === 0 && secret) resolve(secret);
      else reject(new Error(`${command} exited with ${code}:\n${stdout}${stderr}`));
    });
  });
}
