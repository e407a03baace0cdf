import { http, testAppEnv } from '@platform/testing';
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const SPEC_EXIT_DEADLINE_MS = 25_000;

/** Runs the built bundle the way a deployment does and watches its output. */
function startProcess(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [path.join(root, 'dist/apps/batch-worker/main.js')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const listening = new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      const entry = line.startsWith('{') ? JSON.parse(line) : {};
      if (entry.msg === 'batch-worker listening') resolve(entry.url);
    });
    void exit.then(({ code }) => reject(new Error(`exited with ${code} before listening: ${stderr}`)));
  });
  // A process expected to fail never listens; only a test that awaits `listening` cares.
  listening.catch(() => undefined);
  return { child, exit, listening, stderr: () => stderr };
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms).unref())]);
}

describe('batch-worker as a process', () => {
  beforeAll(async () => {
    await promisify(execFile)(process.execPath, ['tools/build.mjs', 'batch-worker'], { cwd: root });
  });

  it('serves /health until SIGTERM, then exits 0 within the deadline', async () => {
    const proc = startProcess(testAppEnv({ LOG_LEVEL: 'info' }));
    const url = await proc.listening;
    expect((await http(url, 'GET', '/health')).status).toBe(200);

    proc.child.kill('SIGTERM');
    expect(await within(proc.exit, SPEC_EXIT_DEADLINE_MS, 'exit after SIGTERM')).toEqual({ code: 0, signal: null });
  });

  it('refuses an invalid PORT with exit code 1 and a message naming it', async () => {
    const proc = startProcess(testAppEnv({ PORT: 'abc' }));

    expect(await proc.exit).toEqual({ code: 1, signal: null });
    expect(proc.stderr()).toMatch(/PORT="abc"/);
  });
});
