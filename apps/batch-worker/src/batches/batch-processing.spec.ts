import type { INestApplication } from '@nestjs/common';
import { loadConfig, MetricsRegistry } from '@platform/service-kit';
import type { Histogram } from 'prom-client';
import { buildApp, http, modelsBetween, pollUntil, startBuiltApp, startLibreTranslateStandIn, testAppEnv, type BuiltApp } from '@platform/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serveBatchWorker } from '../batch-worker.app';
import { BatchWorkerConfig } from '../config/batch-worker.config';
import { createIsolatedStack, type IsolatedStack } from './isolated-stack.testing';

const DEAD_REDIS = 'redis://127.0.0.1:1';
const DAY_MS = 24 * 3600_000;

/** 1,000 texts whose translations each keep their number, so order can be checked. */
const numberedTexts = (count: number) => Array.from({ length: count }, (_, i) => `Text ${i}: the cat is sleeping on the red sofa.`);

describe('batches from submission to results', () => {
  let stack: IsolatedStack;
  let api: BuiltApp;
  let apiUrl: string;
  const started: INestApplication[] = [];

  /** translate-api accepts the batches: the built app in its own process, as deployed. */
  async function startApi(overrides: Record<string, string> = {}) {
    const app = startBuiltApp('translate-api', env({ LOG_LEVEL: 'info', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', ...overrides }));
    return { app, url: await app.listening };
  }
  async function stopApi(app: BuiltApp) {
    app.child.kill('SIGTERM');
    await app.exit;
  }

  const env = (overrides: Record<string, string> = {}) => testAppEnv({ DATABASE_URL: stack.databaseUrl, REDIS_URL: stack.redisUrl, ...overrides });
  async function startWorker(overrides: Record<string, string> = {}) {
    const worker = await serveBatchWorker(loadConfig(BatchWorkerConfig, env(overrides)));
    started.push(worker);
    return worker;
  }

  const submit = (token: string, body: unknown, url = apiUrl) => http(url, 'POST', '/api/v1/batches', { token, json: body });
  const read = (token: string, job: string) => http(apiUrl, 'GET', `/api/v1/batches/${job}`, { token });
  const usage = async (token: string) => (await http(apiUrl, 'GET', '/api/v1/usage', { token })).body;
  const charges = (job: string) => stack.sql<{ words: string; refunded_at: Date | null }>('SELECT words, refunded_at FROM translation.quota_charges WHERE reference = $1', [`batch:${job}`]);

  /** A key allowed to manage the account, whose account has a webhook endpoint. */
  async function keyWithWebhook() {
    const key = await stack.createKey({ scopes: ['translate', 'manage'] });
    const registered = await http(apiUrl, 'PUT', '/api/v1/webhook', { token: key.plainKey, json: { url: 'http://127.0.0.1:9/batches' } });
    expect(registered.status).toBe(201);
    return key;
  }
  const webhookEvents = (accountId: string) =>
    stack.sql<{ type: string; payload: { type: string; timestamp: string; data: Record<string, unknown> } }>(
      'SELECT type, payload FROM translation.webhook_events WHERE account_id = $1',
      [accountId],
    );

  /** How many finished jobs of tier basic `translation_batch_duration_seconds` counts by status, and their seconds. */
  async function finishedJobs(worker: INestApplication) {
    const { values } = await (worker.get(MetricsRegistry).registry.getSingleMetric('translation_batch_duration_seconds') as Histogram).get();
    const basic = (metric: string, status: string) => values.find((v) => v.metricName === metric && v.labels.tier === 'basic' && v.labels.status === status)!.value;
    return { done: basic('translation_batch_duration_seconds_count', 'done'), failed: basic('translation_batch_duration_seconds_count', 'failed'), seconds: basic('translation_batch_duration_seconds_sum', 'failed') + basic('translation_batch_duration_seconds_sum', 'done') };
  }

  /** Polls the job until it leaves `processing`; `promote` lets retries skip their backoff. */
  async function finished(token: string, job: string, { timeoutMs = 60_000, promote = false } = {}) {
    const res = await pollUntil(
      async () => {
        if (promote) await stack.promoteDelayedJobs();
        return read(token, job);
      },
      (r) => r.status === 200 && r.body.status !== 'processing',
      { timeoutMs, intervalMs: 200, what: `job ${job} to finish` },
    );
    return res.body;
  }

  beforeAll(async () => {
    stack = await createIsolatedStack();
    await buildApp('translate-api');
    ({ app: api, url: apiUrl } = await startApi());
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((app) => app.close()));
  });
  afterAll(async () => {
    if (api) await stopApi(api);
    await stack?.destroy();
  });

  it('translates 1,000 texts in input order and charges them once', { timeout: 180_000 }, async () => {
    await startWorker();
    const key = await stack.createKey();

    const accepted = await submit(key.plainKey, { target: 'es', source: 'en', texts: numberedTexts(1000) });
    expect(accepted.status).toBe(202);
    const job = await finished(key.plainKey, accepted.body.job, { timeoutMs: 150_000 });

    expect(job).toMatchObject({ status: 'done', target: 'es', tier: 'basic', progress: { done: 1000, total: 1000 } });
    expect(job.error).toBeUndefined();
    expect(Date.parse(job.expires_at) - Date.parse(job.completed_at)).toBe(30 * DAY_MS);
    expect(job.results).toHaveLength(1000);
    job.results.forEach((result: { index: number; translation: string; detected_source: string }, i: number) => {
      expect(result).toMatchObject({ index: i, detected_source: 'en' });
      expect(result.translation).toMatch(new RegExp(`\\b${i}\\b.*gato`));
    });
    expect(job.results.reduce((sum: number, result: { words: number }) => sum + result.words, 0)).toBe(job.words);
    expect(await usage(key.plainKey)).toMatchObject({ words: job.words, cost_cents: job.cost_cents });
    expect(await charges(job.job)).toEqual([{ words: String(job.words), refunded_at: null }]);
  });

  it('translates with the glossary as it was when the batch was accepted', async () => {
    const key = await stack.createKey();
    const glossary = (translation: string) => ({ name: 'furniture', source: 'en', entries: [{ term: 'sofa', translations: { es: translation } }] });
    const created = await http(apiUrl, 'POST', '/api/v1/glossaries', { token: key.plainKey, json: glossary('diván') });
    const accepted = await submit(key.plainKey, { target: 'es', source: 'en', tier: 'pro', glossary: created.body.glossary.id, texts: ['The cat is on the sofa.'] });
    expect(accepted.status).toBe(202);
    // Changed before any worker runs: the job keeps the terms it was accepted with.
    expect((await http(apiUrl, 'PUT', `/api/v1/glossaries/${created.body.glossary.id}`, { token: key.plainKey, json: glossary('sillón') })).status).toBe(200);

    await startWorker();
    const job = await finished(key.plainKey, accepted.body.job);
    expect(job.results[0].translation).toContain('diván');
    expect(job.tier).toBe('pro');
  });

  it('translates each text of a mixed batch from its own language, and gives back one already in the target free', async () => {
    const key = await stack.createKey();
    const texts = ['The cat is sleeping on the red sofa.', 'Le chat dort sur le canapé rouge de la maison.', 'El perro duerme en el jardín de la casa.'];
    const accepted = await submit(key.plainKey, { target: 'es', texts });
    expect(accepted.status).toBe(202);

    await startWorker();
    const job = await finished(key.plainKey, accepted.body.job);
    expect(job.results.map((result: { detected_source: string }) => result.detected_source)).toEqual(['en', 'fr', 'es']);
    expect(job.results[0].translation).toMatch(/gato/);
    expect(job.results[1].translation).toMatch(/gato/);
    expect(job.results[2]).toMatchObject({ translation: texts[2], words: 0 });
  });

  it('translates with memory as it was at submission, keeps what no memory holds for a pair without an engine, and charges what is translated', async () => {
    const key = await stack.createKey();
    const call = (method: string, path: string, json?: object) => http(apiUrl, method, `/api/v1/memories${path}`, { token: key.plainKey, json });
    const memory = (await call('POST', '', { name: 'UI' })).body.memory.id;
    const entry = async (target: string, source: string, translation: string) =>
      (await call('POST', `/${memory}/entries`, { source_lang: 'en', target_lang: target, source, target: translation })).body.entry.id as string;
    await entry('de', 'Open the file', 'Datei öffnen');
    const morning = await entry('es', 'Good {name} morning', 'Muy buenos días, {name}');

    const kept = await submit(key.plainKey, { source: 'en', target: 'de', format: 'json', missing: 'keep', texts: ['{"a":"Open the file","b":{"c":"Close it"}}', '"Close it"'] });
    const mixed = await submit(key.plainKey, { source: 'en', target: 'es', texts: ['Good {who} morning', 'The cat is sleeping.'] });
    const off = await submit(key.plainKey, { source: 'en', target: 'es', texts: ['Good {who} morning'], memory: false });
    expect([kept.status, mixed.status, off.status]).toEqual([202, 202, 202]);
    expect(await charges(kept.body.job)).toEqual([{ words: '3', refunded_at: null }]);
    // Changed before any worker runs: the jobs keep what the memory held when they were accepted.
    await call('PATCH', `/${memory}/entries/${morning}`, { target: 'Hola, {name}' });
    await startWorker();

    const keptJob = await finished(key.plainKey, kept.body.job);
    expect(keptJob).toMatchObject({ status: 'done', words: 3 });
    expect(keptJob.results).toEqual([
      { index: 0, translation: '{"a":"Datei öffnen","b":{"c":"Close it"}}', detected_source: 'en', words: 3, origin: 'memory', untranslated: true, untranslated_paths: ['/b/c'] },
      { index: 1, translation: '"Close it"', detected_source: 'en', words: 0, origin: 'none', untranslated: true, untranslated_paths: [''] },
    ]);
    const mixedJob = await finished(key.plainKey, mixed.body.job);
    expect(mixedJob.results.map((result: { translation: string; origin: string }) => [result.translation, result.origin])).toEqual([
      ['Muy buenos días, {who}', 'memory'],
      [expect.stringMatching(/gato/), 'engine'],
    ]);
    expect(mixedJob.results[0]).not.toHaveProperty('untranslated');
    const offJob = await finished(key.plainKey, off.body.job);
    expect(offJob.results[0]).toMatchObject({ origin: 'engine', translation: expect.not.stringContaining('Muy buenos') });
  });

  it('translates HTML attributes as the batch was submitted: counted and translated by default, kept with html_attributes false', async () => {
    const key = await stack.createKey();
    const texts = ['<p title="Good morning">Hello</p>'];
    const withAttributes = await submit(key.plainKey, { target: 'es', source: 'en', format: 'html', texts });
    const without = await submit(key.plainKey, { target: 'es', source: 'en', format: 'html', texts, html_attributes: false });
    expect([withAttributes.status, without.status]).toEqual([202, 202]);

    await startWorker();
    const translated = await finished(key.plainKey, withAttributes.body.job);
    expect(translated.results[0]).toMatchObject({ translation: '<p title="Buenos días">Hola</p>', words: 3 });
    const kept = await finished(key.plainKey, without.body.job);
    expect(kept.results[0]).toMatchObject({ translation: '<p title="Good morning">Hola</p>', words: 1 });
  });

  it('resumes a batch where a stopped worker left it, without charging again', { timeout: 180_000 }, async () => {
    const key = await stack.createKey();
    const first = await startWorker();
    const accepted = await submit(key.plainKey, { target: 'es', source: 'en', texts: numberedTexts(1000) });
    const jobId = accepted.body.job;
    await pollUntil(() => read(key.plainKey, jobId), (r) => r.body.progress.done >= 50, { timeoutMs: 60_000, intervalMs: 20, what: 'a first chunk' });

    await first.close();
    started.splice(started.indexOf(first), 1);
    const stopped = (await read(key.plainKey, jobId)).body;
    expect(stopped.status).toBe('processing');
    expect(stopped.progress.done).toBeGreaterThan(0);
    expect(stopped.progress.done).toBeLessThan(1000);

    await startWorker();
    const job = await finished(key.plainKey, jobId, { timeoutMs: 150_000 });
    expect(job).toMatchObject({ status: 'done', progress: { done: 1000, total: 1000 } });
    job.results.forEach((result: { index: number; translation: string }, i: number) => {
      expect(result.index).toBe(i);
      expect(result.translation).toMatch(new RegExp(`\\b${i}\\b`));
    });
    expect(await usage(key.plainKey)).toMatchObject({ words: job.words });
    expect(await charges(jobId)).toEqual([{ words: String(job.words), refunded_at: null }]);
    // The stopping worker queued the rest as a new job rather than failing an attempt.
    expect(await stack.sql(`SELECT job_name FROM translation.outbox WHERE payload->>'jobId' = $1`, [jobId])).toEqual([
      { job_name: 'TranslateBatchJob' },
      { job_name: 'TranslateBatchJob' },
    ]);
  });

  it('sends the next step to the engine while the last is still there, and stores them in input order', { timeout: 60_000 }, async () => {
    const engine = await startLibreTranslateStandIn();
    try {
      // The first step's four engine calls are held; the second step's are answered at once.
      engine.disrupt({ path: '/translate', delayMs: 3000, times: 4 });
      await startWorker({ TRANSLATION_ENGINE: 'libretranslate', LIBRETRANSLATE_URL: engine.url });
      const key = await stack.createKey();
      const accepted = await submit(key.plainKey, { target: 'es', source: 'en', texts: numberedTexts(400) });
      expect(accepted.status).toBe(202);

      await pollUntil(async () => engine.requestsTo('/translate').length, (sent) => sent >= 5, { timeoutMs: 20_000, intervalMs: 10, what: 'the second step in the engine' });
      expect((await read(key.plainKey, accepted.body.job)).body.progress.done).toBe(0);

      const job = await finished(key.plainKey, accepted.body.job);
      expect(job).toMatchObject({ status: 'done', progress: { done: 400, total: 400 } });
      job.results.forEach((result: { index: number; translation: string }, i: number) => {
        expect(result.index).toBe(i);
        expect(result.translation).toMatch(new RegExp(`\\b${i}\\b`));
      });
      const sent = engine.requestsTo('/translate').flatMap((request) => (request.json as { q: string[] }).q);
      expect(sent.toSorted()).toEqual(numberedTexts(400).toSorted());
    } finally {
      await engine.stop();
    }
  });

  it("announces a finished job to the account's webhook with its results, and counts its time to done", async () => {
    const worker = await startWorker();
    const key = await keyWithWebhook();
    const accepted = await submit(key.plainKey, { target: 'es', source: 'en', texts: ['Good morning.', 'The cat is sleeping.'] });
    const job = await finished(key.plainKey, accepted.body.job);

    const events = await webhookEvents(key.accountId);
    expect(events).toEqual([{ type: 'batch.completed', payload: { type: 'batch.completed', timestamp: expect.any(String), data: expect.any(Object) } }]);
    expect(events[0].payload.data).toEqual({
      job: job.job,
      status: 'done',
      target: 'es',
      tier: 'basic',
      words: job.words,
      cost_cents: job.cost_cents,
      results: job.results,
    });
    const { done, failed, seconds } = await finishedJobs(worker);
    expect({ done, failed }).toEqual({ done: 1, failed: 0 });
    expect(seconds * 1000).toBeCloseTo(Date.parse(job.completed_at) - Date.parse(job.created_at), -2);
  });

  it('fails the job and refunds its words once the engine has failed every retry', async () => {
    const engine = await startLibreTranslateStandIn();
    try {
      engine.disrupt({ path: '/translate', status: 500, body: { error: 'model crashed' }, times: 1_000_000 });
      const worker = await startWorker({ TRANSLATION_ENGINE: 'libretranslate', LIBRETRANSLATE_URL: engine.url });
      const key = await keyWithWebhook();
      const accepted = await submit(key.plainKey, { target: 'es', source: 'en', texts: ['Hello world', 'Good morning'] });
      expect(accepted.status).toBe(202);
      expect(await usage(key.plainKey)).toMatchObject({ words: 4 });

      const job = await finished(key.plainKey, accepted.body.job, { promote: true });
      expect(job).toMatchObject({ status: 'failed', error: 'The translation engine kept failing; the words were refunded', progress: { done: 0, total: 2 } });
      expect(job.results).toBeUndefined();
      expect(job.completed_at).toEqual(expect.any(String));
      // Eight attempts of the job, each trying the engine twice.
      expect(engine.requestsTo('/translate')).toHaveLength(16);
      expect(await usage(key.plainKey)).toMatchObject({ words: 0, cost_cents: 0 });
      expect(await charges(job.job)).toEqual([{ words: '4', refunded_at: expect.any(Date) }]);
      expect((await webhookEvents(key.accountId)).map((event) => event.payload.data)).toEqual([
        { job: job.job, status: 'failed', target: 'es', tier: 'basic', words: 4, cost_cents: 1, results: [], error: job.error },
      ]);
      expect(await finishedJobs(worker)).toMatchObject({ done: 0, failed: 1 });
    } finally {
      await engine.stop();
    }
  });

  it('routes a batch as translate-api does: a pair only LibreTranslate has goes there', async () => {
    const engine = await startLibreTranslateStandIn({ models: modelsBetween(['de', 'en']) });
    const routing = { TRANSLATION_ENGINES: 'apertium,libretranslate', LIBRETRANSLATE_URL: engine.url };
    const routed = await startApi(routing);
    try {
      await startWorker(routing);
      const key = await stack.createKey();
      const accepted = await submit(key.plainKey, { target: 'de', source: 'en', texts: ['Hello world', 'Good morning'] }, routed.url);
      expect(accepted.status).toBe(202);

      const job = await finished(key.plainKey, accepted.body.job);
      expect(job).toMatchObject({ status: 'done', progress: { done: 2, total: 2 } });
      expect(job.results.map((result: { translation: string }) => result.translation)).toEqual(['Hallo Welt', 'Guten Morgen']);
      expect(engine.requestsTo('/translate')).toHaveLength(1);
      expect(await charges(job.job)).toEqual([{ words: '4', refunded_at: null }]);
    } finally {
      await stopApi(routed.app);
      await engine.stop();
    }
  });

  it('keeps a batch accepted while Redis is away and translates it once Redis is reachable', async () => {
    const cutOff = await startApi({ REDIS_URL: DEAD_REDIS });
    await startWorker({ REDIS_URL: DEAD_REDIS });
    const key = await stack.createKey();

    const accepted = await submit(key.plainKey, { target: 'es', source: 'en', texts: ['The cat is sleeping.'] }, cutOff.url);
    await stopApi(cutOff.app);
    expect(accepted.status).toBe(202);
    const outbox = () => stack.sql<{ dispatched_at: Date | null }>(`SELECT dispatched_at FROM translation.outbox WHERE payload->>'jobId' = $1`, [accepted.body.job]);
    // Several polls of the relay that cannot reach Redis.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await outbox()).toEqual([{ dispatched_at: null }]);
    expect((await read(key.plainKey, accepted.body.job)).body.status).toBe('processing');

    await startWorker();
    expect(await finished(key.plainKey, accepted.body.job)).toMatchObject({ status: 'done', progress: { done: 1, total: 1 } });
    expect(await outbox()).toEqual([{ dispatched_at: expect.any(Date) }]);
    // Three starts of an app, two of them waiting out connection attempts to a Redis that is not there.
  }, 60_000);

  it('deletes a finished job with its texts once it expires', async () => {
    await startWorker({ BATCH_CLEANUP_INTERVAL_MS: '200' });
    const key = await stack.createKey();
    const [expiring, kept] = await Promise.all([1, 2].map(async () => (await submit(key.plainKey, { target: 'es', source: 'en', texts: ['Good night.'] })).body.job));
    await finished(key.plainKey, expiring);
    await finished(key.plainKey, kept);

    await stack.sql(`UPDATE translation.batch_jobs SET expires_at = now() - interval '1 second' WHERE id = $1`, [expiring]);
    const gone = await pollUntil(() => read(key.plainKey, expiring), (r) => r.status === 404, { what: 'the expired job to be deleted' });
    expect(gone.body).toEqual({ error: 'not_found', message: `Batch job ${expiring} not found` });
    expect(await stack.sql('SELECT idx FROM translation.batch_texts WHERE job_id = $1', [expiring])).toEqual([]);
    expect((await read(key.plainKey, kept)).body.status).toBe('done');
  });
});
