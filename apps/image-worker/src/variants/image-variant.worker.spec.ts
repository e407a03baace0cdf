import { encodeTarget, ImageConverter } from '@platform/image-conversion';
import { photoJpeg, pollUntil, solidPng, testEnv } from '@platform/testing';
import type { JobId } from 'bull';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TcpGate } from './tcp-gate.testing';
import { createVariantStack, type VariantStack } from './variant-stack.testing';

const settled = (stack: VariantStack, id: JobId) =>
  pollUntil(
    () => stack.jobState(id),
    (s) => s.state === 'completed' || s.state === 'failed',
    { timeoutMs: 20_000, what: `job ${id} to settle` },
  );

describe('image-worker producing variants from queued jobs', () => {
  let stack: VariantStack;
  let converter: ImageConverter;
  let source: Buffer;

  beforeAll(async () => {
    stack = await createVariantStack();
    converter = (await stack.startWorker()).get(ImageConverter);
    source = await photoJpeg(1600, 1200);
  });
  afterAll(() => stack?.destroy());

  it('stores the AVIF of a pending source within its bounds, immutable, and deletes the source', async () => {
    const pending = await stack.putPending('avif', source, { maxWidth: 800 });
    await stack.queueJob(pending, 'avif');

    expect(await settled(stack, pending.key)).toMatchObject({ state: 'completed', attemptsMade: 0, returnvalue: 'stored' });
    const stored = await stack.object(pending.imageId, 'avif');
    expect(stored).toMatchObject({ contentType: 'image/avif', cacheControl: 'public, max-age=31536000, immutable' });
    expect(await sharp(stored!.data).metadata()).toMatchObject({ format: 'heif', compression: 'av1', width: 800, height: 600 });
    expect(await stack.hasPending(pending.key)).toBe(false);
  });

  it('encodes with the quality and bounds kept in the source metadata', async () => {
    const params = { quality: 30, maxHeight: 300 };
    const pending = await stack.putPending('webp', source, params);
    await stack.queueJob(pending, 'webp');

    expect(await settled(stack, pending.key)).toMatchObject({ state: 'completed', returnvalue: 'stored' });
    const stored = (await stack.object(pending.imageId, 'webp'))!;
    expect(await sharp(stored.data).metadata()).toMatchObject({ format: 'webp', width: 400, height: 300 });
    const expected = await converter.convert(source, encodeTarget({ format: 'webp', ...params }));
    const atDefaultQuality = await converter.convert(source, encodeTarget({ format: 'webp', maxHeight: 300 }));
    expect(stored.data.equals(expected.data)).toBe(true);
    expect(stored.data.equals(atDefaultQuality.data)).toBe(false);
  });

  it('keeps a variant stored earlier and only deletes the new source', async () => {
    const first = await stack.putPending('webp', source, { maxWidth: 200 });
    await stack.queueJob(first, 'webp');
    await settled(stack, first.key);
    const earlier = (await stack.object(first.imageId, 'webp'))!;

    const again = await stack.putPending('webp', await solidPng(50, 50), { maxWidth: 200 }, first.imageId);
    await stack.queueJob(again, 'webp');

    expect(await settled(stack, again.key)).toMatchObject({ state: 'completed', returnvalue: 'already stored' });
    expect((await stack.object(first.imageId, 'webp'))!.data.equals(earlier.data)).toBe(true);
    expect(await stack.hasPending(again.key)).toBe(false);
  });

  it('completes a job whose source is gone, as after an earlier delivery finished it', async () => {
    const imageId = randomUUID();
    const gone = { imageId, key: `pending/${imageId}.avif/${randomUUID()}` };
    await stack.queueJob(gone, 'avif');

    expect(await settled(stack, gone.key)).toMatchObject({ state: 'completed', returnvalue: 'nothing to do' });
    expect(await stack.object(imageId, 'avif')).toBeNull();
  });

  it('fails a job whose source cannot be decoded at once, without retries, and drops the source', async () => {
    const truncated = source.subarray(0, source.length / 2);
    const pending = await stack.putPending('avif', truncated);
    await stack.queueJob(pending, 'avif');

    expect(await settled(stack, pending.key)).toMatchObject({ state: 'failed', attemptsMade: 1, failedReason: 'The image could not be decoded; it is truncated or corrupt' });
    expect(await stack.object(pending.imageId, 'avif')).toBeNull();
    expect(await stack.hasPending(pending.key)).toBe(false);
  });
});

describe('image-worker while storage is unreachable', () => {
  let stack: VariantStack;
  let s3: TcpGate;

  beforeAll(async () => {
    stack = await createVariantStack();
    s3 = await TcpGate.to(testEnv.s3Endpoint, { open: false });
  });
  afterEach(() => stack.stopWorkers());
  afterAll(async () => {
    await stack?.destroy();
    await s3?.close();
  });

  it('retries a job whose attempt failed on storage, and stores the variant once storage answers', async () => {
    await stack.startWorker({ S3_ENDPOINT: s3.url(testEnv.s3Endpoint) });
    const pending = await stack.putPending('avif', await photoJpeg(400, 300));
    await stack.queueJob(pending, 'avif');

    const failedAttempt = await pollUntil(
      () => stack.jobState(pending.key),
      (s) => (s.attemptsMade ?? 0) >= 1,
      { timeoutMs: 20_000, what: 'a failed attempt' },
    );
    expect(failedAttempt).toMatchObject({ state: expect.stringMatching(/^(delayed|waiting|active)$/), failedReason: expect.any(String) });
    s3.open();

    expect(await settled(stack, pending.key)).toMatchObject({ state: 'completed', returnvalue: 'stored' });
    expect(await stack.object(pending.imageId, 'avif')).toMatchObject({ contentType: 'image/avif' });
    expect(await stack.hasPending(pending.key)).toBe(false);
  });
});
