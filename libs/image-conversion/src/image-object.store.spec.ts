import { loadConfig } from '@platform/service-kit';
import { createS3Client, ensureBucket, StorageConfig } from '@platform/storage';
import { testAppEnv, testEnv } from '@platform/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Transform } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageObjectStore } from './image-object.store';

/**
 * An HTTP proxy to the test's S3 that damages the body of every upload on its way (one byte of
 * it flipped), as a faulty network or disk would: the store must not keep what arrives.
 */
function corruptingProxy(target: string): Promise<Server> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const forwarded = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    let flipped = req.method !== 'PUT';
    const damage = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        if (!flipped && chunk.length > 0) {
          chunk[0] ^= 0xff;
          flipped = true;
        }
        done(null, chunk);
      },
    });
    req.pipe(damage).pipe(forwarded);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('ImageObjectStore uploads', () => {
  const bucket = `store-${randomUUID().slice(0, 8)}`;
  let proxy: Server;
  let direct: ImageObjectStore;
  let throughProxy: ImageObjectStore;

  beforeAll(async () => {
    const settings = loadConfig(StorageConfig, testAppEnv({ S3_BUCKET: bucket }));
    const s3 = createS3Client(settings);
    await ensureBucket(s3, bucket);
    direct = new ImageObjectStore(s3, bucket);
    proxy = await corruptingProxy(testEnv.s3Endpoint);
    const proxied = createS3Client({ ...settings, S3_ENDPOINT: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` });
    throughProxy = new ImageObjectStore(proxied, bucket);
  });
  afterAll(() => new Promise((resolve) => proxy?.close(resolve)));

  it('are refused by the store when the body it received is not the one sent, and leave nothing', async () => {
    const id = randomUUID();
    const data = randomBytes(32 * 1024);
    await expect(throughProxy.put(id, 'avif', data)).rejects.toMatchObject({ name: 'BadDigest' });
    expect(await direct.get(id, 'avif')).toBeNull();
    await expect(throughProxy.putPending(id, 'webp', data, { format: 'avif' })).rejects.toMatchObject({ name: 'BadDigest' });

    await direct.put(id, 'avif', data);
    expect((await direct.get(id, 'avif'))!.equals(data)).toBe(true);
  });
});
