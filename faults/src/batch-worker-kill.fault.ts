import { startWebhookReceiver, type WebhookReceiver } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCompleteResults, getJob, newTranslationKey, numberedTexts, setWebhook, settledJob, sleep, submitBatch, usageWords } from './platform.client';
import { sql, stack, startStopped } from './stack.control';

const JOBS = 3;
const TEXTS = 1000;
/** Every job runs at once (WORKER_CONCURRENCY 4), so each kill hits each job: twice is what lost jobs before. */
const KILLS = 3;
/** After the last kill: a restarted worker resumes a stalled job once its lock runs out (seconds), then finishes 3,000 texts. */
const SETTLE_MS = 2 * 60_000;

async function progress(key: string, jobs: string[]) {
  const all = await Promise.all(jobs.map((job) => getJob(key, job)));
  return all.map((res) => ({ status: res.body?.status as string, done: Number(res.body?.progress?.done ?? 0) }));
}

describe('kill -9 of batch-worker mid-job, again and again', () => {
  let receiver: WebhookReceiver;
  let key: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    key = await newTranslationKey('worker-kills', '--manage');
    await setWebhook(key, `${receiver.url}/hooks`);
  });

  afterAll(async () => {
    await receiver.stop();
    await startStopped();
  });

  it('finishes every job exactly once: complete results in order, one charge, one announced event', async () => {
    const texts = numberedTexts(TEXTS);
    const jobs: string[] = [];
    for (let i = 0; i < JOBS; i++) {
      const res = await submitBatch(key, texts);
      expect(res.status, res.text).toBe(202);
      jobs.push(res.body.job);
    }

    const startedAt = Date.now();
    const kills: string[] = [];
    let seen = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      // Kill only once progress has moved since the last restart: the job is really mid-way.
      const moved = await waitForProgress(key, jobs, seen);
      if (moved === 'settled' || moved === 'stuck') {
        kills.push(moved);
        break;
      }
      seen = moved;
      await stack.signal('batch-worker', 'SIGKILL');
      kills.push(`kill ${kill + 1} at ${moved}/${JOBS * TEXTS} texts, ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);
      await stack.start('batch-worker');
    }
    console.log(`[batch-worker-kill] ${kills.join('; ')}`);
    expect.soft(kills.filter((k) => k.startsWith('kill')).length, `the worker was not killed twice mid-job: ${kills.join('; ')}`).toBeGreaterThanOrEqual(2);

    const deadline = Date.now() + SETTLE_MS;
    const finished: string[] = [];
    for (const job of jobs) {
      const settled = await settledJob(key, job, Math.max(deadline - Date.now(), 1000)).catch((error: Error) => error);
      if (settled instanceof Error) expect.soft(settled.message).toBe(`${job} done`);
      else {
        expectCompleteResults(settled, texts);
        finished.push(job);
      }
    }

    const charges = await sql(`SELECT reference, words, refunded_at FROM translation.quota_charges WHERE reference = ANY($1)`, [jobs.map((job) => `batch:${job}`)]);
    expect.soft(charges.map((c) => c.reference).sort(), 'one charge per job').toEqual(jobs.map((job) => `batch:${job}`).sort());
    expect.soft(charges.filter((c) => c.refunded_at !== null), 'refunded charges').toEqual([]);
    const jobWords = await Promise.all(jobs.map(async (job) => Number((await getJob(key, job)).body.words)));
    expect.soft(await usageWords(key), 'words billed').toBe(jobWords.reduce((a, b) => a + b, 0));

    // Each finished job's batch.completed arrives; a repeat carries the same webhook-id.
    const webhooksBy = Date.now() + 60_000;
    for (const job of finished) {
      const deliveries = await waitForWebhooks(receiver, job, webhooksBy);
      expect.soft(new Set(deliveries.map((d) => d.headers['webhook-id'])).size, `webhook-ids of ${job}`).toBe(1);
      expect.soft(deliveries.map((d) => JSON.parse(d.body).data.status), `events of ${job}`).toContain('done');
    }
  });
});

/** Total texts done once it is past `seen`; or whether every job settled, or none moved for a minute (a stalled job moves again within seconds). */
async function waitForProgress(key: string, jobs: string[], seen: number): Promise<number | 'settled' | 'stuck'> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const now = await progress(key, jobs);
    if (now.every((p) => p.status !== 'processing')) return 'settled';
    const done = now.reduce((sum, p) => sum + p.done, 0);
    if (done > seen) return done;
    await sleep(250);
  }
  return 'stuck';
}

async function waitForWebhooks(receiver: WebhookReceiver, job: string, deadline: number) {
  for (;;) {
    const deliveries = receiver.received.filter((d) => JSON.parse(d.body).data?.job === job);
    if (deliveries.length > 0 || Date.now() > deadline) return deliveries;
    await sleep(500);
  }
}
