import { photoJpeg, pollUntil, testEnv } from '@platform/testing';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TcpGate } from './tcp-gate.testing';
import { createVariantStack, type VariantStack } from './variant-stack.testing';

const SWEEP_INTERVAL_MS = 300;
const sweepEvery = { VARIANT_SWEEP_INTERVAL_MS: String(SWEEP_INTERVAL_MS) };
/** Long enough for several sweeps to run. */
const severalSweeps = () => new Promise((resolve) => setTimeout(resolve, SWEEP_INTERVAL_MS * 5));

function storedVariant(stack: VariantStack, imageId: string) {
  return pollUntil(
    () => stack.object(imageId, 'avif'),
    (stored) => stored !== null,
    { timeoutMs: 25_000, intervalMs: 200, what: `${imageId}.avif` },
  );
}

describe('the sweep of pending sources', () => {
  let stack: VariantStack;
  let source: Buffer;

  beforeAll(async () => {
    stack = await createVariantStack();
    await stack.startWorker(sweepEvery);
    source = await photoJpeg(400, 300);
  });
  afterAll(() => stack?.destroy());

  it('queues a source the queue never heard of under its key, and the variant is made', async () => {
    const pending = await stack.putPending('avif', source, { maxWidth: 200 });

    const stored = await storedVariant(stack, pending.imageId);
    expect(await sharp(stored!.data).metadata()).toMatchObject({ format: 'heif', width: 200, height: 150 });
    expect(await stack.jobState(pending.key)).toMatchObject({ state: 'completed', returnvalue: 'stored' });
    expect(await stack.hasPending(pending.key)).toBe(false);
  });

  it('leaves a source alone whose job Bull still holds', async () => {
    const pending = await stack.putPending('avif', source);
    await stack.queueJob(pending, 'avif', { delay: 60_000 });

    await severalSweeps();
    expect(await stack.queue.getJobCounts()).toMatchObject({ delayed: 1, waiting: 0, active: 0 });
    expect(await stack.object(pending.imageId, 'avif')).toBeNull();

    await (await stack.queue.getJob(pending.key))!.promote();
    await storedVariant(stack, pending.imageId);
  });
});

describe('the sweep through outages', () => {
  let stack: VariantStack;
  let gate: TcpGate;

  beforeAll(async () => {
    stack = await createVariantStack();
  });
  afterEach(async () => {
    await stack.stopWorkers();
    await gate?.close();
  });
  afterAll(() => stack?.destroy());

  it('keeps sweeping while storage is away and starts over a job that used up its attempts then', async () => {
    gate = await TcpGate.to(testEnv.s3Endpoint, { open: false });
    await stack.startWorker({ ...sweepEvery, S3_ENDPOINT: gate.url(testEnv.s3Endpoint) });
    const pending = await stack.putPending('avif', await photoJpeg(200, 150));
    await stack.queueJob(pending, 'avif', { attempts: 1 });
    await pollUntil(
      () => stack.jobState(pending.key),
      (s) => s.state === 'failed',
      { what: 'the only attempt to fail' },
    );

    await severalSweeps();
    gate.open();

    await storedVariant(stack, pending.imageId);
    expect(await stack.jobState(pending.key)).toMatchObject({ state: 'completed', attemptsMade: 0, returnvalue: 'stored' });
  });

  it('keeps sweeping while Redis is away and queues the source once it is back', async () => {
    gate = await TcpGate.to(stack.redisUrl, { open: false });
    await stack.startWorker({ ...sweepEvery, REDIS_URL: gate.url(stack.redisUrl) });
    const pending = await stack.putPending('avif', await photoJpeg(200, 150));

    await severalSweeps();
    gate.open();

    await storedVariant(stack, pending.imageId);
    expect(await stack.jobState(pending.key)).toMatchObject({ state: 'completed', returnvalue: 'stored' });
  });
});
