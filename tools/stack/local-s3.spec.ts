import { GetObjectCommand, HeadBucketCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalS3 } from './local-s3.mjs';
import { canMountSmallDisk, mountSmallDisk } from './small-disk.mjs';

const BUCKET = 'atomic';

interface Running {
  client: S3Client;
  endpoint: string;
  directory: string;
  close(): Promise<void>;
}

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startLocalS3(directory?: string): Promise<Running> {
  const dir = directory ?? (await mkdtemp(path.join(tmpdir(), 'local-s3-')));
  const server = createLocalS3({ directory: dir, address: '127.0.0.1', port: 0, buckets: [BUCKET] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, maxAttempts: 1 });
  const running = {
    client,
    endpoint,
    directory: dir,
    close: async () => {
      client.destroy();
      await server.close();
      if (!directory) await rm(dir, { recursive: true, force: true });
    },
  };
  cleanups.push(running.close);
  return running;
}

const md5 = (data: Buffer) => createHash('md5').update(data).digest('base64');
const put = (s3: Running, key: string, body: Buffer, contentMd5 = md5(body)) => s3.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body, ContentMD5: contentMd5 }));
const read = async (s3: Running, key: string) => {
  try {
    return Buffer.from(await (await s3.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).Body!.transformToByteArray());
  } catch (error) {
    if (error instanceof NoSuchKey) return null;
    throw error;
  }
};
const keys = async (s3: Running) => ((await s3.client.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? []).map((object) => object.Key);
/** Every file of the bucket's objects, drafts included (not the bucket's own settings). */
const files = async (s3: Running) => (await readdir(path.join(s3.directory, BUCKET), { recursive: true })).filter((name) => !name.startsWith('._S3rver_')).sort();
const statusOf = (error: unknown) => (error instanceof S3ServiceException ? error.$metadata.httpStatusCode : error);

describe('the local S3 server writes objects whole or not at all', () => {
  it('refuses a body that does not match its Content-MD5 and keeps nothing of it', async () => {
    const s3 = await startLocalS3();
    const body = randomBytes(64 * 1024);
    const refused = await put(s3, 'a.avif', body, md5(Buffer.from('something else'))).catch((error: S3ServiceException) => error);
    expect(refused).toMatchObject({ name: 'BadDigest', $metadata: { httpStatusCode: 400 } });
    expect(await read(s3, 'a.avif')).toBeNull();
    expect(await files(s3)).toEqual([]);

    await put(s3, 'a.avif', body);
    expect((await read(s3, 'a.avif'))!.equals(body)).toBe(true);
  });

  it('never shows an upload cut off mid-body, and keeps serving', async () => {
    const s3 = await startLocalS3();
    const body = randomBytes(256 * 1024);
    await put(s3, 'kept.webp', body);
    // A client that dies after a tenth of what it declared (s3rver does not check V4 signatures).
    const req = request(`${s3.endpoint}/${BUCKET}/torn.webp`, {
      method: 'PUT',
      headers: {
        authorization: 'AWS4-HMAC-SHA256 Credential=S3RVER/20250101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=0',
        'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
        'x-amz-date': new Date().toISOString().replace(/[-:]|\.\d+/g, ''),
        'content-length': String(body.length),
      },
    });
    req.on('error', () => undefined);
    req.write(body.subarray(0, body.length / 10));
    // Part of it is stored, in a draft no reader sees.
    await expect.poll(async () => (await files(s3)).filter((name) => name.startsWith('torn'))).toHaveLength(1);
    expect(await read(s3, 'torn.webp')).toBeNull();
    req.destroy();
    await expect.poll(async () => (await files(s3)).filter((name) => name.startsWith('torn'))).toEqual([]);
    expect(await read(s3, 'torn.webp')).toBeNull();
    expect(await keys(s3)).toEqual(['kept.webp']);
    expect((await files(s3)).filter((name) => name.startsWith('torn'))).toEqual([]);
    expect((await read(s3, 'kept.webp'))!.equals(body)).toBe(true);
  });

  it.skipIf(!canMountSmallDisk())('answers 507 on a full disk without exiting or leaving a torn object, and stores again once there is room', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'local-s3-disk-'));
    const disk = mountSmallDisk(dir, 2 * 1024 * 1024);
    cleanups.push(() => rm(dir, { recursive: true, force: true }), () => disk.unmount());
    const s3 = await startLocalS3(dir);
    const before = randomBytes(200 * 1024);
    await put(s3, 'before.webp', before);

    disk.fill();
    const body = randomBytes(300 * 1024);
    expect(statusOf(await put(s3, 'full.avif', body).catch((error: unknown) => error))).toBe(507);
    expect(await read(s3, 'full.avif')).toBeNull();
    expect((await files(s3)).filter((name) => name.startsWith('full'))).toEqual([]);
    // Still up: reads work while the disk is full.
    expect((await s3.client.send(new HeadBucketCommand({ Bucket: BUCKET }))).$metadata.httpStatusCode).toBe(200);
    expect((await read(s3, 'before.webp'))!.equals(before)).toBe(true);

    disk.free();
    await put(s3, 'full.avif', body);
    expect((await read(s3, 'full.avif'))!.equals(body)).toBe(true);
    expect((await keys(s3)).sort()).toEqual(['before.webp', 'full.avif']);
  });
});
