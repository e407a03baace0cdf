import { afterAll, describe, expect, it } from 'vitest';
import { expectCompleteResults, expectOnly, getJob, newTranslationKey, numberedTexts, settledJob, sleep, submitBatch, translate, usageWords } from './platform.client';
import { sql, stack, startStopped } from './stack.control';

/** The services' default SHUTDOWN_TIMEOUT_MS: a drain that needs it all has hung. */
const SHUTDOWN_BUDGET_MS = 20_000;

describe('SIGTERM', () => {
  afterAll(startStopped);

  it('of translate-api with 20 requests in flight answers all 20 and exits 0 once they are done', async () => {
    const key = await newTranslationKey('sigterm-api');
    const texts = numberedTexts(50);
    // fetch keeps its connections alive after each answer, as pooled clients do: 20 of them are
    // open and idle first, so each request below is written at once and reaches the server
    // before the signal.
    await Promise.all(Array.from({ length: 20 }, () => usageWords(key)));
    const inFlight = Array.from({ length: 20 }, () => translate(key, texts));
    await sleep(1000);
    const signalled = Date.now();
    const stopped = stack.signal('translate-api', 'SIGTERM');
    const answers = await Promise.all(inFlight);
    const lastAnswer = Math.max(...answers.map((a) => a.at));
    const { exit, ms } = await stopped;
    console.log(`[sigterm] translate-api: last answer ${lastAnswer - signalled} ms after SIGTERM, exit (${exit}) after ${ms} ms`);
    await stack.start('translate-api');

    expectOnly(answers, (res) => res.status === 200 && res.body.translations.length === texts.length, 'requests in flight: answered 200 with every translation');
    expect.soft(exit).toBe('exit code 0');
    expect(ms, 'exit once the in-flight requests are answered, not at the shutdown deadline').toBeLessThan(Math.min(SHUTDOWN_BUDGET_MS, lastAnswer - signalled + 5000));
  });

  it('of batch-worker mid-chunk: the job completes after the restart, charged once', async () => {
    const key = await newTranslationKey('sigterm-worker');
    const texts = numberedTexts(1000);
    const submitted = await submitBatch(key, texts);
    expect(submitted.status, submitted.text).toBe(202);
    const job = submitted.body.job as string;
    const deadline = Date.now() + 60_000;
    while (Number((await getJob(key, job)).body.progress?.done ?? 0) === 0 && Date.now() < deadline) await sleep(200);

    const { exit, ms } = await stack.signal('batch-worker', 'SIGTERM');
    console.log(`[sigterm] batch-worker: exit (${exit}) after ${ms} ms`);
    await stack.start('batch-worker');
    expect.soft(exit).toBe('exit code 0');

    const done = await settledJob(key, job, 3 * 60_000);
    expectCompleteResults(done, texts);
    const charges = await sql(`SELECT words, refunded_at FROM translation.quota_charges WHERE reference = $1`, [`batch:${job}`]);
    expect(charges).toEqual([{ words: String(done.words), refunded_at: null }]);
    expect(await usageWords(key)).toBe(Number(done.words));
  });
});
