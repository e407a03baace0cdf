import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { convert, conversionsCounted, expectOnly, health, isImageOutage, newImageToken, photo, sleep } from './platform.client';
import { stack, startStopped } from './stack.control';

/** The bucket as its owner sees it (s3rver takes any credentials), to list what is stored. */
async function storedKeys(): Promise<string[]> {
  const { infra } = await stack.state();
  const s3 = new S3Client({ endpoint: infra.s3Endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: infra.bucket, ContinuationToken: token }));
    keys.push(...(page.Contents ?? []).map((object) => object.Key!));
    token = page.NextContinuationToken;
  } while (token);
  return keys;
}

/** An anonymous GET, as anyone on the internet pointed at the bucket would try. */
async function publicRead(key: string) {
  const { infra } = await stack.state();
  const res = await fetch(`${infra.cdnUrl}/${key}`);
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('S3 down during conversions', () => {
  afterAll(async () => {
    await stack.startServer('s3').catch(() => undefined);
    await startStopped();
  });

  it('answers 503 without counting, makes the second format once S3 is back, and exposes no partial object', async () => {
    const token = await newImageToken();
    // The second format is image-worker's job: stopped, its job waits in the queue for the outage.
    await stack.signal('image-worker', 'SIGTERM');
    const stored = await convert(token, await photo(1000, 1200, 900));
    expect(stored.status, stored.text).toBe(200);
    const avifUrl = stored.headers.get('x-cdn-url-avif')!;
    const counted = await conversionsCounted(token);

    await stack.stopServer('s3');
    // One after another: a token may run only two conversions at once.
    const refused = [];
    for (const seed of [1001, 1002, 1003]) refused.push(await convert(token, await photo(seed)));
    expectOnly(refused, isImageOutage, 'convert while S3 is down: the 503 envelope with Retry-After');
    expect(await conversionsCounted(token)).toBe(counted);
    // The worker takes the job while S3 is away: its attempts fail until S3 returns.
    await stack.start('image-worker', { wait: false });
    await sleep(10_000);
    expect((await fetch(avifUrl).catch(() => null))?.status ?? 0).not.toBe(200);

    await stack.startServer('s3');
    const deadline = Date.now() + 90_000;
    let avif = await fetch(avifUrl);
    while (avif.status !== 200 && Date.now() < deadline) {
      await sleep(1000);
      avif = await fetch(avifUrl);
    }
    expect(avif.status, `${avifUrl} after S3 came back`).toBe(200);
    expect((await sharp(Buffer.from(await avif.arrayBuffer())).metadata()).format).toBe('heif');
    expect((await health('image-worker')).status).toBe(200);

    // Whatever is stored: outputs are complete images, originals are not readable by anyone.
    for (const key of await storedKeys()) {
      const read = await publicRead(key);
      if (/^[0-9a-f-]{36}\.(webp|avif)$/.test(key)) {
        expect(read.status, key).toBe(200);
        const decoded = await sharp(read.bytes).raw().toBuffer({ resolveWithObject: true }).catch((error: Error) => error);
        expect(decoded, `${key} decodes completely`).not.toBeInstanceOf(Error);
      } else {
        expect(read.status, `${key} is not an output image and must not be public`).not.toBe(200);
      }
    }
  });
});
