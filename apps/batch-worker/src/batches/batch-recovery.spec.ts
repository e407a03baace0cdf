import { STUCK_REASON, UNPROCESSABLE_REASON } from '@platform/batches';
import {
  buildApp,
  http,
  pollUntil,
  startBuiltApp,
  startLibreTranslateStandIn,
  startOwnRedis,
  testAppEnv,
  type BuiltApp,
  type OwnDependency,
  type StandIn,
} from '@platform/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createIsolatedStack, type IsolatedStack } from './isolated-stack.testing';

/** Each chunk of 50 texts waits this long at the engine, so a 1,000-text job runs for seconds. */
const CHUNK_MS = 250;

/**
 * Fast locks and checks, and Bull's own default of one stall per job: a job's second kill has
 * Bull fail it, which only the reconciler can make good.
 */
const RECOVERY_ENV = {
  QUEUE_LOCK_DURATION_MS: '2000',
  QUEUE_STALLED_INTERVAL_MS: '500',
  QUEUE_MAX_STALLED_COUNT: '1',
  BATCH_RECONCILE_INTERVAL_MS: '300',
  BATCH_REQUEUE_AFTER_MS: '3000',
};

/** Texts whose translations keep their number, so order can be checked. */
const numberedTexts = (count: number) => Array.from({ length: count }, (_, i) => `Text ${i}: The cat is sleeping.`);

interface JobRow {
  status: string;
  done_count: number;
  requeues: number;
  recoveries: number;
  error: string | null;
}

describe('batch jobs whose workers die and whose Redis comes back empty', () => {
  let redis: OwnDependency;
  let stack: IsolatedStack;
  /** The workers' engine, new for each test; translate-api only checks language pairs with its own. */
  let engine: StandIn;
  let apiEngine: StandIn;
  let api: BuiltApp;
  let apiUrl: string;
  const workers: BuiltApp[] = [];

  // An override of `undefined` leaves the variable unset: the app's default applies.
  const env = (overrides: Record<string, string | undefined> = {}) =>
    testAppEnv({ DATABASE_URL: stack.databaseUrl, REDIS_URL: redis.url, TRANSLATION_ENGINE: 'libretranslate', LIBRETRANSLATE_URL: engine.url, ...RECOVERY_ENV, ...overrides } as Record<string, string>);

  /** batch-worker as deployed: its own process, which the test may kill. */
  async function startWorker(overrides: Record<string, string | undefined> = {}) {
    // The "listening" line that startBuiltApp waits for is an info line.
    const worker = startBuiltApp('batch-worker', env({ LOG_LEVEL: 'info', ...overrides }));
    workers.push(worker);
    await worker.listening;
    return worker;
  }
  async function kill(worker: BuiltApp) {
    worker.child.kill('SIGKILL');
    await worker.exit;
  }

  const submit = async (token: string, texts: string[], extra: Record<string, unknown> = {}) => {
    const res = await http(apiUrl, 'POST', '/api/v1/batches', { token, json: { source: 'en', target: 'de', texts, ...extra } });
    expect(res.status).toBe(202);
    return res.body.job as string;
  };
  const read = async (token: string, job: string) => (await http(apiUrl, 'GET', `/api/v1/batches/${job}`, { token })).body;
  const row = async (job: string) =>
    (await stack.sql<JobRow>('SELECT status, done_count, requeues, recoveries, error FROM translation.batch_jobs WHERE id = $1', [job]))[0];
  const charges = (job: string) => stack.sql<{ words: string; refunded_at: Date | null }>('SELECT words, refunded_at FROM translation.quota_charges WHERE reference = $1', [`batch:${job}`]);
  const events = (job: string) =>
    stack.sql<{ id: string; payload: { data: { status: string; error?: string; results: unknown[] } } }>(
      `SELECT id, payload FROM translation.webhook_events WHERE payload->'data'->>'job' = $1`,
      [job],
    );
  const usage = async (token: string) => (await http(apiUrl, 'GET', '/api/v1/usage', { token })).body;

  async function keyWithWebhook() {
    const key = await stack.createKey({ scopes: ['translate', 'manage'] });
    expect((await http(apiUrl, 'PUT', '/api/v1/webhook', { token: key.plainKey, json: { url: 'http://127.0.0.1:9/batches' } })).status).toBe(201);
    return key;
  }

  const finished = (job: string, { timeoutMs = 90_000, promote = false } = {}) =>
    pollUntil(
      async () => {
        if (promote) await stack.promoteDelayedJobs();
        return row(job);
      },
      (r) => r.status !== 'processing',
      { timeoutMs, intervalMs: 200, what: `job ${job} to finish` },
    );
  const moved = (job: string, beyond: number) => pollUntil(() => row(job), (r) => r.done_count > beyond, { timeoutMs: 60_000, intervalMs: 20, what: `job ${job} past ${beyond} texts` });

  /** Done, every result in input order, charged once and never refunded, announced once. */
  async function expectCompletedOnce(token: string, job: string, count: number) {
    const view = await read(token, job);
    expect(view).toMatchObject({ status: 'done', progress: { done: count, total: count } });
    expect(view.results).toHaveLength(count);
    view.results.forEach((result: { index: number; translation: string }, i: number) => {
      expect(result.index).toBe(i);
      expect(result.translation).toBe(`Text ${i}: Die Katze schläft.`);
    });
    expect(await charges(job)).toEqual([{ words: String(view.words), refunded_at: null }]);
    const announced = await events(job);
    expect(announced).toHaveLength(1);
    expect(announced[0].payload.data).toMatchObject({ status: 'done', results: view.results });
  }

  /** Failed with `error`, refunded exactly once, announced once. */
  async function expectFailedOnce(token: string, job: string, error: string) {
    expect(await read(token, job)).toMatchObject({ status: 'failed', error });
    expect(await charges(job)).toEqual([{ words: expect.any(String), refunded_at: expect.any(Date) }]);
    expect(await usage(token)).toMatchObject({ words: 0, cost_cents: 0 });
    const announced = await events(job);
    expect(announced).toHaveLength(1);
    expect(announced[0].payload.data).toMatchObject({ status: 'failed', error, results: [] });
  }

  beforeAll(async () => {
    redis = await startOwnRedis();
    stack = await createIsolatedStack({ redisUrl: redis.url });
    [engine, apiEngine] = await Promise.all([startLibreTranslateStandIn(), startLibreTranslateStandIn()]);
    await Promise.all([buildApp('translate-api'), buildApp('batch-worker')]);
    api = startBuiltApp('translate-api', env({ LOG_LEVEL: 'info', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', LIBRETRANSLATE_URL: apiEngine.url }));
    apiUrl = await api.listening;
  }, 180_000);
  afterEach(async () => {
    await Promise.all(workers.splice(0).map(kill));
    await engine.stop();
    engine = await startLibreTranslateStandIn();
  });
  afterAll(async () => {
    if (api) {
      api.child.kill('SIGTERM');
      await api.exit;
    }
    await Promise.all([engine?.stop(), apiEngine?.stop()]);
    await stack?.destroy();
    await redis?.destroy();
  });

  it.each([2, 3])('finishes a 1,000-text job whose worker is killed %i times mid-job, charged and announced once', { timeout: 180_000 }, async (kills) => {
    engine.disrupt({ path: '/translate', delayMs: CHUNK_MS, times: 1_000_000 });
    const key = await keyWithWebhook();
    const job = await submit(key.plainKey, numberedTexts(1000));

    let worker = await startWorker();
    for (let n = 0; n < kills; n++) {
      await moved(job, (await row(job)).done_count);
      await kill(worker);
      worker = await startWorker();
    }
    expect(await finished(job)).toMatchObject({ status: 'done', done_count: 1000 });
    await expectCompletedOnce(key.plainKey, job, 1000);
    // The second kill had Bull fail the job; the reconciler queued it again.
    expect((await row(job)).recoveries).toBe(1);
  });

  it('with its deployed lock settings, takes up a job whose worker was killed through the stalled-job check and completes it once', { timeout: 180_000 }, async () => {
    engine.disrupt({ path: '/translate', delayMs: CHUNK_MS, times: 1_000_000 });
    // The lock defaults every worker has; the reconciler far too slow to be the one that takes it up.
    const deployed = { QUEUE_LOCK_DURATION_MS: undefined, QUEUE_STALLED_INTERVAL_MS: undefined, QUEUE_MAX_STALLED_COUNT: undefined, BATCH_REQUEUE_AFTER_MS: '600000' };
    const key = await keyWithWebhook();
    const job = await submit(key.plainKey, numberedTexts(1000));

    const first = await startWorker(deployed);
    await moved(job, 0);
    await kill(first);
    const killedAt = (await row(job)).done_count;
    await startWorker(deployed);
    await moved(job, killedAt);
    expect(await finished(job)).toMatchObject({ status: 'done', done_count: 1000, requeues: 0, recoveries: 0 });
    await expectCompletedOnce(key.plainKey, job, 1000);
  });

  it('queues again the batches that were waiting when Redis came back empty', { timeout: 180_000 }, async () => {
    engine.disrupt({ path: '/translate', delayMs: CHUNK_MS, times: 1_000_000 });
    await startWorker({ WORKER_CONCURRENCY: '1' });
    const key = await keyWithWebhook();
    const running = await submit(key.plainKey, numberedTexts(1000));
    await moved(running, 0);
    const waiting = [await submit(key.plainKey, numberedTexts(60)), await submit(key.plainKey, numberedTexts(3))];
    // Relayed to Redis, behind the running one.
    await pollUntil(
      () => stack.sql<{ n: number }>(`SELECT count(*)::int AS n FROM translation.outbox WHERE dispatched_at IS NULL AND payload->>'jobId' = ANY($1)`, [waiting]),
      ([{ n }]) => n === 0,
      { what: 'the waiting batches to be relayed' },
    );
    expect(await Promise.all(waiting.map(async (job) => (await row(job)).done_count))).toEqual([0, 0]);

    // No persistence: it comes back empty.
    await redis.stop();
    await redis.start();

    for (const [job, count] of [[running, 1000], [waiting[0], 60], [waiting[1], 3]] as const) {
      expect(await finished(job)).toMatchObject({ status: 'done' });
      await expectCompletedOnce(key.plainKey, job, count);
    }
    for (const job of waiting) expect(await row(job)).toMatchObject({ recoveries: 1 });
  });

  it('fails a job that keeps killing its workers once its recoveries are used up, refunded and announced once', { timeout: 120_000 }, async () => {
    engine.disrupt({ path: '/translate', delayMs: CHUNK_MS, times: 1_000_000 });
    const lethal = { QUEUE_MAX_STALLED_COUNT: '0', BATCH_MAX_RECOVERIES: '1' };
    const key = await keyWithWebhook();
    const job = await submit(key.plainKey, numberedTexts(1000));

    let worker = await startWorker(lethal);
    for (let n = 0; n < 2; n++) {
      await moved(job, (await row(job)).done_count);
      await kill(worker);
      worker = await startWorker(lethal);
    }
    expect(await finished(job)).toMatchObject({ status: 'failed', recoveries: 1 });
    await expectFailedOnce(key.plainKey, job, UNPROCESSABLE_REASON);
  });

  it('fails a job whose engine keeps failing, across a killed worker, refunded and announced once', { timeout: 120_000 }, async () => {
    engine.disrupt({ path: '/translate', status: 500, body: { error: 'model crashed' }, times: 1_000_000 });
    const key = await keyWithWebhook();
    const job = await submit(key.plainKey, ['Hello world', 'Good morning']);

    const first = await startWorker();
    await pollUntil(() => engine.requestsTo('/translate').length, (n) => n >= 2, { timeoutMs: 30_000, what: 'a first failed attempt' });
    await kill(first);
    await startWorker();
    expect(await finished(job, { promote: true })).toMatchObject({ status: 'failed' });
    await expectFailedOnce(key.plainKey, job, 'The translation engine kept failing; the words were refunded');
  });

  it('fails a job that stops moving for BATCH_STUCK_AFTER_MS, refunded and announced once', { timeout: 60_000 }, async () => {
    // The engine takes every chunk and never answers.
    engine.disrupt({ path: '/translate', delayMs: 600_000, times: 1_000_000 });
    await startWorker({ BATCH_STUCK_AFTER_MS: '2000' });
    const key = await keyWithWebhook();
    const job = await submit(key.plainKey, numberedTexts(10));

    expect(await finished(job)).toMatchObject({ status: 'failed', done_count: 0 });
    await expectFailedOnce(key.plainKey, job, STUCK_REASON);
  });

  it('leaves a review-tier job waiting for its reviewers alone', { timeout: 60_000 }, async () => {
    await startWorker({ REVIEW_SAMPLE_RATE: '1', BATCH_REQUEUE_AFTER_MS: '100', BATCH_STUCK_AFTER_MS: '1000' });
    const key = await stack.createKey();
    // A live review-tier job is accepted only where somebody can review it: a reviewer of the account.
    await stack.sql(`INSERT INTO translation.reviewers (account_id, languages, token_hash, token_hint) VALUES ($1, '{de}', $2, 'x')`, [key.accountId, `hash-${key.keyId}`]);
    const job = await submit(key.plainKey, ['Good morning.'], { tier: 'review' });
    await pollUntil(() => stack.sql('SELECT 1 FROM translation.review_tasks WHERE job_id = $1', [job]), (tasks) => tasks.length === 1, { what: 'the review task' });

    // Many reconciler passes, well past both limits.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await row(job)).toMatchObject({ status: 'processing', done_count: 1, requeues: 0, recoveries: 0 });
    expect(await stack.sql(`SELECT 1 FROM translation.outbox WHERE payload->>'jobId' = $1`, [job])).toHaveLength(1);
  });

  it('finishes a job whose worker got SIGTERM mid-chunk, once restarted, charged and announced once', { timeout: 120_000 }, async () => {
    engine.disrupt({ path: '/translate', delayMs: CHUNK_MS, times: 1_000_000 });
    const key = await keyWithWebhook();
    const job = await submit(key.plainKey, numberedTexts(1000));
    const worker = await startWorker();
    await moved(job, 0);

    worker.child.kill('SIGTERM');
    expect(await worker.exit).toEqual({ code: 0, signal: null });
    const stopped = await row(job);
    expect(stopped).toMatchObject({ status: 'processing', requeues: 1, recoveries: 0 });
    expect(stopped.done_count).toBeLessThan(1000);

    await startWorker();
    expect(await finished(job)).toMatchObject({ status: 'done', recoveries: 0 });
    await expectCompletedOnce(key.plainKey, job, 1000);
  });
});
