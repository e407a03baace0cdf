import { CreateBucketCommand, DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { startS3Server } from './s3-server';

describe('startS3Server', () => {
  it('serves S3 on a free port until stopped, converted images to anyone and the rest to signed requests only', async () => {
    const s3 = await startS3Server();
    const client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    try {
      expect(s3.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await client.send(new CreateBucketCommand({ Bucket: 'probe' }));
      for (const Key of ['a.webp', 'a.avif', 'notes.txt', 'pending/a.webp/1', 'nested/a.webp']) {
        await client.send(new PutObjectCommand({ Bucket: 'probe', Key, Body: 'hello' }));
      }
      const anonymous = async (method: string, key: string) => (await fetch(`${s3.endpoint}/probe/${key}`, { method })).status;
      expect([await anonymous('GET', 'a.webp'), await anonymous('HEAD', 'a.avif'), await anonymous('GET', 'missing.webp')]).toEqual([200, 200, 404]);
      expect(await (await fetch(`${s3.endpoint}/probe/a.webp`)).text()).toBe('hello');
      for (const key of ['notes.txt', 'pending/a.webp/1', 'pending%2Fa.webp%2F1', 'nested/a.webp', '', '?list-type=2', 'a.webp?acl']) {
        expect([key, await anonymous('GET', key)]).toEqual([key, 403]);
      }
      expect([await anonymous('PUT', 'b.webp'), await anonymous('DELETE', 'a.webp'), (await fetch(`${s3.endpoint}/`)).status]).toEqual([403, 403, 403]);
      expect(await anonymous('GET', 'a.webp')).toBe(200);
    } finally {
      client.destroy();
      await s3.stop();
    }
    await expect(fetch(`${s3.endpoint}/probe/a.webp`)).rejects.toThrow();
  });

  it('keeps serving while objects of one folder are written and deleted at once', async () => {
    const s3 = await startS3Server();
    const client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    try {
      await client.send(new CreateBucketCommand({ Bucket: 'race' }));
      // Identical uploads share a folder: one request deletes the last object in it while
      // another writes a new one there.
      for (let round = 0; round < 30; round++) {
        await client.send(new PutObjectCommand({ Bucket: 'race', Key: `pending/x.webp/${round}-a`, Body: 'a' }));
        await Promise.all([
          client.send(new DeleteObjectCommand({ Bucket: 'race', Key: `pending/x.webp/${round}-a` })),
          client.send(new PutObjectCommand({ Bucket: 'race', Key: `pending/x.webp/${round}-b`, Body: 'b' })),
        ]);
      }
      const last = await client.send(new GetObjectCommand({ Bucket: 'race', Key: 'pending/x.webp/29-b' }));
      expect(await last.Body!.transformToString()).toBe('b');
    } finally {
      client.destroy();
      await s3.stop();
    }
  });
});
