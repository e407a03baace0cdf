import type { INestApplication } from '@nestjs/common';
import { MetricsRegistry } from '@platform/service-kit';
import { photoJpeg, pollUntil, startTamperingProxy, testEnv } from '@platform/testing';
import { DataSource } from 'typeorm';
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

/** Storage that keeps serving reads but refuses every write for as long as `refusing`, as a full disk does. */
async function writeRefusingStorage() {
  const state = { refusing: true };
  const proxy = await startTamperingProxy(testEnv.s3Endpoint, (req) =>
    state.refusing && req.method === 'PUT'
      ? { answer: { status: 507, headers: { 'content-type': 'application/xml' }, body: '<Error><Code>InsufficientStorage</Code><Message>no space left</Message></Error>' } }
      : undefined,
  );
  return Object.assign(state, { url: proxy.url, close: proxy.close });
}

describe('variants whose job keeps failing', () => {
  let stack: VariantStack;
  let storage: Awaited<ReturnType<typeof writeRefusingStorage>>;

  beforeAll(async () => {
    stack = await createVariantStack();
  });
  afterEach(async () => {
    await stack.stopWorkers();
    await storage?.close();
  });
  afterAll(() => stack?.destroy());

  const failureOf = (app: INestApplication, key: string) =>
    app.get(DataSource).query<{ state: string; rounds: number; last_error: string }[]>('SELECT state, rounds, last_error FROM image.variant_failures WHERE source_key = $1', [key]).then((rows) => rows[0]);

  it('are given up after their last round, visibly, and left alone with their source until an operator retries them', async () => {
    storage = await writeRefusingStorage();
    const app = await stack.startWorker({ ...sweepEvery, S3_ENDPOINT: storage.url, VARIANT_MAX_ROUNDS: '1' });
    const pending = await stack.putPending('avif', await photoJpeg(200, 150));
    await stack.queueJob(pending, 'avif', { attempts: 1 });

    const failure = await pollUntil(() => failureOf(app, pending.key), (row) => row?.state === 'failed', { timeoutMs: 20_000, what: 'the variant to be given up' });
    expect(failure).toMatchObject({ rounds: 1, last_error: 'no space left' });
    const metrics = await app.get(MetricsRegistry).registry.getSingleMetricAsString('image_variants_failed');
    const [{ n }] = await app.get(DataSource).query<{ n: number }[]>(`SELECT count(*)::int AS n FROM image.variant_failures WHERE state = 'failed'`);
    expect(metrics).toMatch(new RegExp(`^image_variants_failed ${n}$`, 'm'));

    // Later sweeps queue it no more; its source stays for the operator.
    await severalSweeps();
    expect(await stack.queue.getJob(pending.key)).toBeNull();
    expect(await stack.hasPending(pending.key)).toBe(true);
    expect(await failureOf(app, pending.key)).toMatchObject({ state: 'failed', rounds: 1 });

    // The runbook's retry: room again, the row deleted.
    storage.refusing = false;
    await app.get(DataSource).query('DELETE FROM image.variant_failures WHERE source_key = $1', [pending.key]);
    await storedVariant(stack, pending.imageId);
    expect(await stack.hasPending(pending.key)).toBe(false);
  });

  it('are started over while rounds remain, and forgotten once the variant is made', async () => {
    storage = await writeRefusingStorage();
    const app = await stack.startWorker({ ...sweepEvery, S3_ENDPOINT: storage.url, VARIANT_MAX_ROUNDS: '3' });
    const pending = await stack.putPending('avif', await photoJpeg(200, 150));
    await stack.queueJob(pending, 'avif', { attempts: 1 });

    expect(await pollUntil(() => failureOf(app, pending.key), (row) => row !== undefined, { timeoutMs: 20_000, what: 'the first round to be counted' })).toMatchObject({ state: 'retrying', rounds: 1 });
    expect(await stack.jobState(pending.key)).toMatchObject({ state: expect.stringMatching(/^(waiting|active|delayed)$/) });

    storage.refusing = false;
    await storedVariant(stack, pending.imageId);
    await pollUntil(() => failureOf(app, pending.key), (row) => row === undefined, { timeoutMs: 10_000, what: 'the row to be forgotten' });
  });
});
