import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The part of s3rver's API used here; the package ships no types. */
interface S3rver {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: { address: string; port: number; directory: string; silent: boolean }) => S3rver;

export interface RunningS3Server {
  endpoint: string;
  stop(): Promise<void>;
}

/** An S3-compatible server on a free loopback port, keeping its objects in a fresh temp directory. */
export async function startS3Server(): Promise<RunningS3Server> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
  const directory = await mkdtemp(path.join(tmpdir(), 's3rver-test-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
  const { address, port } = await server.run();
  return {
    endpoint: `http://${address}:${port}`,
    stop: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
