import { QueueName } from '@platform/contracts';
import { pollUntil, startWebhookReceiver, type WebhookReceiver } from '@platform/testing';
import Bull from 'bull';
import { afterAll, describe, expect, it } from 'vitest';
import { convert, expectOnly, newImageToken, newTranslationKey, photo, setWebhook, sleep, submitBatch } from './platform.client';
import { stack, startStopped } from './stack.control';

/** A worker's jobs move again within this of its kill (a restart included). */
const MOVING_WITHIN_MS = 10_000;

const jobOf = (body: string) => JSON.parse(body).data?.job as string | undefined;

describe('kill -9 of a worker with work under way', () => {
  let receiver: WebhookReceiver | undefined;
  afterAll(async () => {
    await receiver?.stop();
    await startStopped();
  });

  it("webhook-dispatcher: the attempts under way are made again, and the endpoint's waiting deliveries follow", async () => {
    // A receiver that takes 3 s to answer: two attempts at a time are under way at it, the others wait in its lane.
    receiver = await startWebhookReceiver(async () => {
      await sleep(3000);
      return { status: 204 };
    });
    const key = await newTranslationKey('dispatcher-kill', '--manage');
    await setWebhook(key, `${receiver.url}/hooks`);
    const submitted = await Promise.all(Array.from({ length: 6 }, (_, i) => submitBatch(key, [`Text ${i}: the cat sleeps.`])));
    expectOnly(submitted, (res) => res.status === 202, 'batches accepted');
    const jobs = submitted.map((res) => res.body.job as string);

    await pollUntil(() => receiver!.received.length, (n) => n >= 2, { timeoutMs: 60_000, intervalMs: 100, what: 'two attempts under way' });
    await stack.signal('webhook-dispatcher', 'SIGKILL');
    const killedAt = Date.now();
    await stack.start('webhook-dispatcher');

    const next = await pollUntil(() => receiver!.received.find((delivery) => delivery.at > killedAt), Boolean, { timeoutMs: 90_000, intervalMs: 100, what: 'a delivery after the kill' });
    const delivered = await pollUntil(
      () => new Set(receiver!.received.map((delivery) => jobOf(delivery.body))),
      (seen) => jobs.every((job) => seen.has(job)),
      { timeoutMs: 90_000, intervalMs: 250, what: "every batch's event delivered" },
    );
    const lastAt = Math.max(...jobs.map((job) => receiver!.received.find((delivery) => jobOf(delivery.body) === job)!.at));
    console.log(`[worker-kills] webhook-dispatcher: a delivery ${((next!.at - killedAt) / 1000).toFixed(1)} s after the kill, all ${delivered.size} events ${((lastAt - killedAt) / 1000).toFixed(1)} s after it`);
    expect(next!.at - killedAt, 'kill to the next delivery').toBeLessThan(MOVING_WITHIN_MS);
  });

  it('image-worker: the variants it was making are made again', async () => {
    const { infra } = await stack.state();
    const queue = new Bull(QueueName.ImageVariants, infra.redisUrl);
    try {
      const token = await newImageToken();
      // Large photos, whose AVIF takes image-worker a while.
      const images = await Promise.all([4100, 4101, 4102].map((seed) => photo(seed, 2400, 1800)));
      const converted = [];
      for (const image of images) converted.push(await convert(token, image));
      expectOnly(converted, (res) => res.status === 200, 'conversions');
      const active = await pollUntil(() => queue.getActive(), (jobs) => jobs.length > 0, { timeoutMs: 30_000, intervalMs: 50, what: 'a variant being made' });

      await stack.signal('image-worker', 'SIGKILL');
      const killedAt = Date.now();
      await stack.start('image-worker');

      // Each is taken up again (started anew: a later processedOn) by the new worker.
      const resumed = await Promise.all(
        active.map(async ({ id }) => {
          const job = await pollUntil(() => queue.getJob(id), (again) => (again?.processedOn ?? 0) > killedAt, { timeoutMs: 90_000, intervalMs: 100, what: `variant job ${id} taken up again` });
          return job!.processedOn! - killedAt;
        }),
      );
      const made = await Promise.all(
        active.map(async (job) => {
          const url = `${infra.cdnUrl}/${job.data.imageId}.${job.data.format}`;
          await pollUntil(() => fetch(url).then((res) => res.status), (status) => status === 200, { timeoutMs: 90_000, intervalMs: 200, what: url });
          return Date.now() - killedAt;
        }),
      );
      const seconds = (all: number[]) => all.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ');
      console.log(`[worker-kills] image-worker: ${active.length} variants under way at the kill taken up again ${seconds(resumed)} and made ${seconds(made)} after it`);
      expect(Math.max(...resumed), 'kill to the last of them taken up again').toBeLessThan(MOVING_WITHIN_MS);
      for (const res of converted) expect((await fetch(res.headers.get('x-cdn-url-avif')!)).status).toBe(200);
    } finally {
      await queue.close();
    }
  });
});
