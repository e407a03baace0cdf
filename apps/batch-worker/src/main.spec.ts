import { buildApp, http, startBuiltApp, testAppEnv } from '@platform/testing';
import { beforeAll, describe, expect, it } from 'vitest';

const SPEC_EXIT_DEADLINE_MS = 25_000;
const startProcess = (env: NodeJS.ProcessEnv) => startBuiltApp('batch-worker', env);

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms).unref())]);
}

describe('batch-worker as a process', () => {
  beforeAll(async () => {
    await buildApp('batch-worker');
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
