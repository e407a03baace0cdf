import type { INestApplication } from '@nestjs/common';
import { generateReviewerToken, hashReviewerToken, reviewerTokenHint } from '@platform/review';
import { loadConfig } from '@platform/service-kit';
import { buildApp, http, pollUntil, startBuiltApp, testAppEnv, type BuiltApp, type TestKey } from '@platform/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serveBatchWorker } from '../batch-worker.app';
import { BatchWorkerConfig } from '../config/batch-worker.config';
import { createIsolatedStack, type IsolatedStack } from './isolated-stack.testing';

interface ClaimedTask {
  id: string;
  job: string;
  index: number;
  source_language?: string;
  target: string;
  source_text: string;
  machine_translation: string;
  lease_until: string;
}

describe('review tier from submission to reviewed results', () => {
  let stack: IsolatedStack;
  let api: BuiltApp;
  let apiUrl: string;
  const started: INestApplication[] = [];

  const env = (overrides: Record<string, string> = {}) => testAppEnv({ DATABASE_URL: stack.databaseUrl, REDIS_URL: stack.redisUrl, ...overrides });
  async function startWorker(overrides: Record<string, string> = {}) {
    started.push(await serveBatchWorker(loadConfig(BatchWorkerConfig, env(overrides))));
  }

  const submit = (token: string, body: Record<string, unknown>) => http(apiUrl, 'POST', '/api/v1/batches', { token, json: { source: 'en', tier: 'review', ...body } });
  const read = async (token: string, job: string) => (await http(apiUrl, 'GET', `/api/v1/batches/${job}`, { token })).body;
  const next = (token: string, lang: string) => http(apiUrl, 'GET', `/api/v1/review/tasks/next?lang=${lang}`, { token });
  const answer = (token: string, id: string, json: unknown) => http(apiUrl, 'POST', `/api/v1/review/tasks/${id}`, { token, json });
  const tasks = (job: string) => stack.sql<{ idx: number; status: string }>('SELECT idx, status FROM translation.review_tasks WHERE job_id = $1 ORDER BY idx', [job]);
  const webhookData = async (accountId: string) =>
    (await stack.sql<{ payload: { data: Record<string, unknown> } }>('SELECT payload FROM translation.webhook_events WHERE account_id = $1', [accountId])).map((event) => event.payload.data);

  /** A reviewer of the account straight in the database, as `admin reviewer:create --account` stores one (its own spec covers the command). */
  async function reviewer(accountId: string, languages: string[]): Promise<string> {
    const token = generateReviewerToken();
    await stack.sql('INSERT INTO translation.reviewers (account_id, languages, token_hash, token_hint) VALUES ($1, $2, $3, $4)', [accountId, languages, hashReviewerToken(token), reviewerTokenHint(token)]);
    return token;
  }

  async function keyWithWebhook(sandbox: boolean): Promise<TestKey> {
    const key = await stack.createKey({ sandbox, scopes: ['translate', 'manage'] });
    expect((await http(apiUrl, 'PUT', '/api/v1/webhook', { token: key.plainKey, json: { url: 'http://127.0.0.1:9/review' } })).status).toBe(201);
    return key;
  }

  /** Waits until the worker has translated the job and sampled its texts for review. */
  const inReview = (job: string, count: number) => pollUntil(() => tasks(job), (rows) => rows.length === count, { timeoutMs: 60_000, intervalMs: 100, what: `${count} review tasks of ${job}` });
  const finished = (token: string, job: string) => pollUntil(() => read(token, job), (body) => body.status !== 'processing', { timeoutMs: 60_000, intervalMs: 100, what: `job ${job} to finish` });

  async function claim(token: string, lang: string): Promise<ClaimedTask> {
    const res = await next(token, lang);
    expect(res.status).toBe(200);
    expect(res.body.task).not.toBeNull();
    return res.body.task;
  }

  beforeAll(async () => {
    stack = await createIsolatedStack();
    await buildApp('translate-api');
    api = startBuiltApp('translate-api', env({ LOG_LEVEL: 'info', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', REVIEW_LEASE_SECONDS: '60' }));
    apiUrl = await api.listening;
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((app) => app.close()));
  });
  afterAll(async () => {
    if (api) {
      api.child.kill('SIGTERM');
      await api.exit;
    }
    await stack?.destroy();
  });

  it('completes a sandbox job without people once its sampled tasks are approved, and fires the webhook', async () => {
    await startWorker({ REVIEW_SANDBOX_DELAY_MS: '200' });
    const key = await keyWithWebhook(true);
    const accepted = await http(apiUrl, 'POST', '/api/v1/translate', { token: key.plainKey, json: { target: 'es', source: 'en', tier: 'review', texts: ['Good morning.', 'The cat is sleeping.', 'Thank you.'] } });
    expect(accepted.status).toBe(202);

    const job = await finished(key.plainKey, accepted.body.job);
    expect(job).toMatchObject({ status: 'done', tier: 'review', progress: { done: 3, total: 3 } });
    // 10 % of three texts, rounded up: one.
    expect((await tasks(job.job)).map((task) => task.status)).toEqual(['approved']);
    expect(await webhookData(key.accountId)).toEqual([{ job: job.job, status: 'done', target: 'es', tier: 'review', words: job.words, cost_cents: job.cost_cents, results: job.results }]);
  });

  it('approves a sandbox job after a worker restart, from the state in Postgres', async () => {
    await startWorker({ REVIEW_SANDBOX_DELAY_MS: '3600000' });
    const key = await stack.createKey({ sandbox: true });
    const accepted = await submit(key.plainKey, { target: 'es', texts: ['Good night.'] });
    await inReview(accepted.body.job, 1);
    await Promise.all(started.splice(0).map((app) => app.close()));
    expect((await read(key.plainKey, accepted.body.job)).status).toBe('processing');

    await startWorker({ REVIEW_SANDBOX_DELAY_MS: '100' });
    expect((await finished(key.plainKey, accepted.body.job)).status).toBe('done');
  });

  it('keeps a live job processing until reviewers have answered every sampled text, and shows their edits', async () => {
    await startWorker({ REVIEW_SAMPLE_RATE: '1' });
    const key = await keyWithWebhook(false);
    const token = await reviewer(key.accountId, ['es', 'de']);
    const accepted = await submit(key.plainKey, { target: 'es', texts: ['Good morning.', 'The cat is sleeping.'] });
    expect(accepted.status).toBe(202);
    await inReview(accepted.body.job, 2);
    expect(await read(key.plainKey, accepted.body.job)).toMatchObject({ status: 'processing', progress: { done: 2, total: 2 } });

    const first = await claim(token, 'es');
    expect(first).toMatchObject({ job: accepted.body.job, index: 0, source_language: 'en', target: 'es', source_text: 'Good morning.' });
    expect(Date.parse(first.lease_until)).toBeGreaterThan(Date.now());
    expect(await answer(token, first.id, { verdict: 'approve' })).toMatchObject({ status: 200, body: { ok: true, task: first.id, status: 'approved' } });
    expect(await answer(token, first.id, { verdict: 'approve' })).toMatchObject({ status: 409, body: { error: 'already_answered' } });
    expect((await read(key.plainKey, accepted.body.job)).status).toBe('processing');

    const second = await claim(token, 'es');
    expect(second.index).toBe(1);
    expect((await answer(token, second.id, { verdict: 'edit' })).status).toBe(422);
    expect(await answer(token, second.id, { verdict: 'edit', translation: 'El gato duerme plácidamente.' })).toMatchObject({ status: 200, body: { status: 'edited' } });
    expect((await next(token, 'es')).body).toEqual({ ok: true, task: null });

    const job = await finished(key.plainKey, accepted.body.job);
    expect(job.status).toBe('done');
    expect(job.results.map((result: { translation: string }) => result.translation)).toEqual([first.machine_translation, 'El gato duerme plácidamente.']);
    expect(await webhookData(key.accountId)).toEqual([expect.objectContaining({ job: job.job, status: 'done', tier: 'review', results: job.results })]);
  });

  it('returns a task whose lease ran out to the pool, and refuses the late answer', async () => {
    await startWorker({ REVIEW_SAMPLE_RATE: '1' });
    const key = await stack.createKey();
    const [slow, quick] = [await reviewer(key.accountId, ['fr']), await reviewer(key.accountId, ['fr'])];
    const accepted = await submit(key.plainKey, { target: 'fr', texts: ['The cat is sleeping.'] });
    await inReview(accepted.body.job, 1);

    const claimed = await claim(slow, 'fr');
    expect(await answer(quick, claimed.id, { verdict: 'approve' })).toMatchObject({ status: 409, body: { error: 'not_claimed' } });
    expect((await next(quick, 'fr')).body.task).toBeNull();

    await stack.sql(`UPDATE translation.review_tasks SET lease_until = now() - interval '1 second' WHERE id = $1`, [claimed.id]);
    expect(await answer(slow, claimed.id, { verdict: 'approve' })).toMatchObject({ status: 409, body: { error: 'lease_expired' } });
    const reclaimed = await claim(quick, 'fr');
    expect(reclaimed.id).toBe(claimed.id);
    expect((await answer(quick, reclaimed.id, { verdict: 'approve' })).status).toBe(200);
    expect((await finished(key.plainKey, accepted.body.job)).status).toBe('done');
  });

  it('admits reviewers only, and only to their languages', async () => {
    const key = await stack.createKey();
    const token = await reviewer(key.accountId, ['de']);
    expect(await next(token, 'es')).toMatchObject({ status: 403, body: { error: 'forbidden', message: 'You review de, not es' } });
    expect(await next(key.plainKey, 'de')).toMatchObject({ status: 401, body: { error: 'invalid_key' } });
    expect(await http(apiUrl, 'GET', '/api/v1/review/tasks/next?lang=de')).toMatchObject({ status: 401, body: { error: 'invalid_key' } });
    expect(await next(token, 'german')).toMatchObject({ status: 422, body: { error: 'unsupported_language' } });
    expect(await answer(token, '00000000-0000-4000-8000-000000000000', { verdict: 'approve' })).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect(await answer(token, 'nope', { verdict: 'maybe' })).toMatchObject({ status: 422, body: { error: 'unsupported_language' } });
  });
});
