import { afterAll, describe, expect, it } from 'vitest';
import { expectCompleteResults, expectOnly, isTranslationOutage, newTranslationKey, numberedTexts, restartsSince, settledJob, sleep, steadyLoad, submitBatch, translate } from './platform.client';
import { outage, tally } from './outage';
import { SERVICES, stack, startStopped } from './stack.control';

const DOWN_MS = 30_000;

/**
 * Redis killed (no persistence: it comes back empty) while translations and batches keep
 * coming. Translate needs no Redis (the rate limiter lets requests through, idempotency is unused)
 * and answers 200; a batch is accepted with 202 through the Postgres outbox and queued once Redis
 * is back. A 503 `service_unavailable` envelope is the only other clear answer allowed.
 */
describe('Redis down for 30 s during translations and batch submissions', () => {
  afterAll(startStopped);

  it('answers every request clearly, loses no accepted batch and recovers without restarts', async () => {
    const before = await stack.state();
    const key = await newTranslationKey('redis-outage');
    const texts = numberedTexts(10);
    const translations = steadyLoad(() => translate(key, ['The cat sleeps on the sofa.']), 250);
    const batches = steadyLoad(() => submitBatch(key, texts), 1000);
    await sleep(5000);
    // More than the worker can finish before Redis dies: jobs waiting in the queue, which an
    // empty Redis no longer knows.
    const backlogTexts = numberedTexts(300);
    const backlog = await Promise.all(Array.from({ length: 6 }, () => submitBatch(key, backlogTexts)));
    const { health } = await outage('redis', DOWN_MS, 60_000);
    await sleep(10_000);
    const [translated, submitted] = await Promise.all([translations.stop(), batches.stop()]);
    console.log(`[redis-outage] translate: ${JSON.stringify(tally(translated))}; batches: ${JSON.stringify(tally(submitted))}`);

    expectOnly(translated, (res) => res.status === 200 || isTranslationOutage(res), 'translate: 200 or the 503 envelope with Retry-After');
    expectOnly(submitted, (res) => res.status === 202 || isTranslationOutage(res), 'batches: 202 or the 503 envelope with Retry-After');

    const accepted = submitted.filter((res) => res.status === 202).map((res) => res.body.job as string);
    expect(accepted.length).toBeGreaterThan(0);
    const deadline = Date.now() + 3 * 60_000;
    for (const res of backlog) expect(res.status, res.text).toBe(202);
    const unfinished: string[] = [];
    for (const [job, jobTexts] of [...backlog.map((res) => [res.body.job, backlogTexts] as const), ...accepted.map((job) => [job, texts] as const)]) {
      const settled = await settledJob(key, job, Math.max(deadline - Date.now(), 1000)).catch(() => null);
      if (settled) expectCompleteResults(settled, jobTexts);
      else unfinished.push(job);
    }
    expect.soft(unfinished, `accepted batches still processing 3 minutes after Redis came back (of ${accepted.length + backlog.length})`).toEqual([]);

    for (const service of SERVICES) {
      expect.soft(health.during[service].some((h) => h.status === 503 && h.checks.redis === 'down'), `${service} /health while Redis was down: ${JSON.stringify(health.during[service])}`).toBe(true);
      expect.soft(health.after[service], `${service} /health after Redis returned`).toMatchObject({ status: 200, checks: { redis: 'up' } });
    }
    expect(await restartsSince(before)).toEqual([]);
  });
});
