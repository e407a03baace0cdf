import { imageId } from '@platform/image-conversion';
import { pollUntil } from '@platform/testing';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { expectOnlyWholeOutputsPublic, publicRead } from './bucket';
import { convert, conversionsCounted, expectOnly, isImageOutage, newImageToken, photo, restartsSince, sleep } from './platform.client';
import { sql, stack } from './stack.control';

const FULL_MS = 15_000;

describe("the S3 server's disk full during conversions", () => {
  afterAll(() => stack.fillS3Disk(false).catch(() => undefined));

  it('answers 503 and counts nothing meanwhile, keeps the S3 server up, serves nothing torn, and stores everything once there is room', async (context) => {
    const before = await stack.state();
    if (!before.canFillDisk) context.skip('the S3 server has no disk of its own to fill: the fault suite needs root for that');
    const token = await newImageToken();
    // Converted just before the disk fills: image-worker makes their AVIF while it is full.
    const earlier = await Promise.all([3000, 3001].map((seed) => photo(seed, 1600, 1200)));
    const stored = [];
    for (const image of earlier) stored.push(await convert(token, image));
    expectOnly(stored, (res) => res.status === 200, 'conversions before the disk fills');

    await stack.fillS3Disk(true);
    const refusedImages = await Promise.all([3010, 3011, 3012].map((seed) => photo(seed)));
    // One after another: a token may run only two conversions at once.
    const refused = [];
    for (const image of refusedImages) refused.push(await convert(token, image));
    expectOnly(refused, isImageOutage, 'convert while the disk is full: the 503 envelope with Retry-After');
    expect(await conversionsCounted(token), 'conversions counted while the disk was full').toBe(stored.length);
    for (const image of refusedImages) {
      const id = imageId(image, { format: 'webp' });
      expect((await publicRead(`${id}.webp`)).status, `${id}.webp of a refused conversion`).not.toBe(200);
    }
    await sleep(FULL_MS);
    expect((await stack.state()).servers.s3, 'the S3 server while its disk is full').toEqual({ running: true, exit: null });

    await stack.fillS3Disk(false);
    const freedAt = Date.now();
    const again = await pollUntil(
      () => convert(token, refusedImages[0]),
      (res) => res.status === 200,
      { timeoutMs: 20_000, intervalMs: 1000, what: 'a conversion once there is room' },
    );
    console.log(`[s3-disk-full] converting again ${((again.at - freedAt) / 1000).toFixed(1)} s after the disk had room`);

    // The variants whose attempts failed on the full disk are made once it has room.
    for (const res of stored) {
      const avif = res.headers.get('x-cdn-url-avif')!;
      const made = await pollUntil(
        () => fetch(avif).then(async (r) => ({ status: r.status, bytes: Buffer.from(await r.arrayBuffer()) })),
        (r) => r.status === 200,
        { timeoutMs: 60_000, intervalMs: 1000, what: `${avif} once the disk has room` },
      );
      expect((await sharp(made.bytes).metadata()).format).toBe('heif');
    }
    const ids = stored.map((res) => res.headers.get('x-cdn-image-id'));
    expect(await sql(`SELECT source_key, state FROM image.variant_failures WHERE image_id = ANY($1::uuid[])`, [ids]), 'variants given up').toEqual([]);
    await expectOnlyWholeOutputsPublic();
    expect(await restartsSince(before)).toEqual([]);
  });
});
