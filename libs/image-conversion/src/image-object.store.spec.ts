import { loadConfig } from '@platform/service-kit';
import { createS3Client, ensureBucket, StorageConfig } from '@platform/storage';
import { startTamperingProxy, type Tampering, type TamperingProxy, testAppEnv, testEnv } from '@platform/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageObjectStore } from './image-object.store';

/** One byte of every upload's body flipped on its way, as a faulty network or disk would. */
const damageUploads = (req: IncomingMessage): Tampering => {
  if (req.method !== 'PUT') return undefined;
  let flipped = false;
  return {
    body: new Transform({
      transform(chunk: Buffer, _encoding, done) {
        if (!flipped && chunk.length > 0) {
          chunk[0] ^= 0xff;
          flipped = true;
        }
        done(null, chunk);
      },
    }),
  };
};

describe('ImageObjectStore uploads', () => {
  const bucket = `store-${randomUUID().slice(0, 8)}`;
  let proxy: TamperingProxy;
  let direct: ImageObjectStore;
  let throughProxy: ImageObjectStore;

  beforeAll(async () => {
    const settings = loadConfig(StorageConfig, testAppEnv({ S3_BUCKET: bucket }));
    const s3 = createS3Client(settings);
    await ensureBucket(s3, bucket);
    direct = new ImageObjectStore(s3, bucket);
    proxy = await startTamperingProxy(testEnv.s3Endpoint, damageUploads);
    const proxied = createS3Client({ ...settings, S3_ENDPOINT: proxy.url });
    throughProxy = new ImageObjectStore(proxied, bucket);
  });
  afterAll(() => proxy?.close());

  it('are refused by the store when the body it received is not the one sent (one byte flipped on the way), and leave nothing', async () => {
    const id = randomUUID();
    const data = randomBytes(32 * 1024);
    await expect(throughProxy.put(id, 'avif', data)).rejects.toMatchObject({ name: 'BadDigest' });
    expect(await direct.get(id, 'avif')).toBeNull();
    await expect(throughProxy.putPending(id, 'webp', data, { format: 'avif' })).rejects.toMatchObject({ name: 'BadDigest' });

    await direct.put(id, 'avif', data);
    expect((await direct.get(id, 'avif'))!.equals(data)).toBe(true);
  });
});
