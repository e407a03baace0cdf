import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The part of s3rver's API used here; the package ships no types. */
interface S3rver {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type CreateLocalS3 = (options: { directory: string; address: string; port: number }) => S3rver;

export interface RunningS3Server {
  endpoint: string;
  stop(): Promise<void>;
}

/** The stack's own set-up of s3rver, so tests meet the access rules `npm start` has. */
const LOCAL_S3 = new URL('../../../tools/stack/local-s3.mjs', import.meta.url).href;

/**
 * An S3-compatible server on a free loopback port, keeping its objects in a fresh temp
 * directory, set up as the local stack sets it up: anonymous clients may only read converted
 * images; everything else needs a signed request.
 */
export async function startS3Server(): Promise<RunningS3Server> {
  const { createLocalS3 } = (await import(LOCAL_S3)) as { createLocalS3: CreateLocalS3 };
  const directory = await mkdtemp(path.join(tmpdir(), 's3rver-test-'));
  const server = createLocalS3({ address: '127.0.0.1', port: 0, directory });
  const { address, port } = await server.run();
  return {
    endpoint: `http://${address}:${port}`,
    stop: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
