import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalS3 } from './local-s3.mjs';
import { freePorts } from './own-infra.mjs';

type EnsureS3 = (env: NodeJS.ProcessEnv) => Promise<{ endpoint: string; bucket: string; stop: (() => Promise<void>) | null }>;

describe("the stack's own S3 server", () => {
  let dataDir: string;
  let ensureS3: EnsureS3;

  beforeAll(async () => {
    // The stack's data directory is read once, when its modules load.
    dataDir = await mkdtemp(path.join(tmpdir(), 'stack-s3-'));
    process.env.STACK_DATA_DIR = dataDir;
    ({ ensureS3 } = await import('./s3.mjs'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('starts on STACK_S3_PORT, and a second start of the same stack reuses it', async () => {
    const [port] = await freePorts(1);
    const first = await ensureS3({ STACK_S3_PORT: String(port) });
    try {
      expect(first.endpoint).toBe(`http://127.0.0.1:${port}`);
      expect(first.stop).not.toBeNull();
      const again = await ensureS3({ STACK_S3_PORT: String(port) });
      expect(again).toMatchObject({ endpoint: first.endpoint, stop: null });
    } finally {
      await first.stop?.();
    }
  });

  it("refuses a port where another stack's S3 server listens, saying how to choose another", async () => {
    const [port] = await freePorts(1);
    const otherDir = await mkdtemp(path.join(tmpdir(), 'other-stack-s3-'));
    const other = createLocalS3({ directory: otherDir, address: '127.0.0.1', port });
    await other.run();
    try {
      await expect(ensureS3({ STACK_S3_PORT: String(port) })).rejects.toThrow(`Port ${port} is taken by the S3 server of another stack (objects in ${otherDir}); set STACK_S3_PORT`);
    } finally {
      await other.close();
      await rm(otherDir, { recursive: true, force: true });
    }
  });

  it('refuses a port held by anything else', async () => {
    const [port] = await freePorts(1);
    const server = createServer((_, res) => res.end('hello'));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      await expect(ensureS3({ STACK_S3_PORT: String(port) })).rejects.toThrow(`Port ${port} is taken by something that is not this stack's S3 server`);
    } finally {
      server.close();
    }
  });

  it.each(['abc', '0', '70000', '6000'])('refuses STACK_S3_PORT=%s', async (value) => {
    await expect(ensureS3({ STACK_S3_PORT: value })).rejects.toThrow(/STACK_S3_PORT/);
  });
});
