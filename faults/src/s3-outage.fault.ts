import { afterAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { expectOnlyWholeOutputsPublic } from './bucket';
import { convert, conversionsCounted, expectOnly, health, isImageOutage, newImageToken, photo, sleep } from './platform.client';
import { stack, startStopped } from './stack.control';

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

    await expectOnlyWholeOutputsPublic();
  });
});
