import type { INestApplication } from '@nestjs/common';
import { loadConfig } from '@platform/service-kit';
import { buildApp, http, pollUntil, startBuiltApp, testAppEnv, type BuiltApp } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveBatchWorker } from '../batch-worker.app';
import { BatchWorkerConfig } from '../config/batch-worker.config';
import { createIsolatedStack, type IsolatedStack } from './isolated-stack.testing';

const NNBSP = '\u202F';

describe('a batch with a style profile', () => {
  let stack: IsolatedStack;
  let api: BuiltApp;
  let apiUrl: string;
  let worker: INestApplication | undefined;

  const env = (overrides: Record<string, string> = {}) => testAppEnv({ DATABASE_URL: stack.databaseUrl, REDIS_URL: stack.redisUrl, ...overrides });

  beforeAll(async () => {
    stack = await createIsolatedStack();
    await buildApp('translate-api');
    // Its "listening" line, which says where, is an info line.
    api = startBuiltApp('translate-api', env({ LOG_LEVEL: 'info', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }));
    apiUrl = await api.listening;
  });
  afterAll(async () => {
    await worker?.close();
    if (api) {
      api.child.kill('SIGTERM');
      await api.exit;
    }
    await stack?.destroy();
  });

  it('is translated with the profile as it was when the batch was charged, and says which profile', async () => {
    const { plainKey } = await stack.createKey({ sandbox: true, scopes: ['translate', 'manage'] });
    const call = (method: string, path: string, json?: unknown) => http(apiUrl, method, `/api/v1${path}`, { token: plainKey, json });
    const profile = (await call('POST', '/style-profiles', { name: 'Brand', do_not_translate: ['Notion'], formality: 'less' })).body;
    // Nothing listens there; the event is written all the same.
    expect((await call('PUT', '/webhook', { url: 'http://127.0.0.1:9/batches' })).status).toBe(201);

    const accepted = await call('POST', '/batches', { source: 'en', target: 'fr', style_profile: profile.id, texts: ['Open Notion now!', 'Warning: file not found!'] });
    expect(accepted.status).toBe(202);
    // Changed before any worker runs: the job keeps what it was accepted and charged with.
    expect((await call('PUT', `/style-profiles/${profile.id}`, { name: 'Brand', typography: { french_spacing: false } })).status).toBe(200);
    const rows = await stack.sql<{ style_profile: { id: string; doNotTranslate: unknown[] } }>('SELECT style_profile FROM translation.batch_jobs WHERE id = $1', [accepted.body.job]);
    expect(rows[0].style_profile).toMatchObject({ id: profile.id, doNotTranslate: [{ term: 'Notion', caseSensitive: true }] });

    worker = await serveBatchWorker(loadConfig(BatchWorkerConfig, env()));
    const done = await pollUntil(
      async () => (await call('GET', `/batches/${accepted.body.job}`)).body,
      (body) => body.status !== 'processing',
      { timeoutMs: 60_000, intervalMs: 200, what: 'the batch to finish' },
    );
    expect(done).toMatchObject({ status: 'done', style_profile: profile.id });
    // Apertium has no formality: the job says so rather than dropping it silently.
    expect(done.formality).toEqual({ requested: 'less', applied: false, applied_by: [], ignored_by: ['apertium'] });
    const [open, warning] = done.results.map((result: { translation: string }) => result.translation);
    expect(open).toMatch(new RegExp(`Notion.*${NNBSP}!$`, 'u'));
    expect(warning).toMatch(new RegExp(`${NNBSP}: .*${NNBSP}!$`, 'u'));
    // Open _ now | Warning file not found: Notion is free.
    expect(done.words).toBe(2 + 4);
    // The webhook event says the same as the job.
    const [event] = await stack.sql<{ data: Record<string, unknown> }>(`SELECT payload->'data' AS data FROM translation.webhook_events WHERE type = 'batch.completed' AND payload->'data'->>'job' = $1`, [accepted.body.job]);
    expect(event.data).toMatchObject({ style_profile: profile.id, formality: done.formality });
  });

  it("refuses another account's profile with 404 and charges nothing", async () => {
    const owner = await stack.createKey({ sandbox: true });
    const { id } = (await http(apiUrl, 'POST', '/api/v1/style-profiles', { token: owner.plainKey, json: { name: 'Mine' } })).body;
    const stranger = await stack.createKey({ sandbox: true });
    const res = await http(apiUrl, 'POST', '/api/v1/batches', { token: stranger.plainKey, json: { target: 'es', style_profile: id, texts: ['Hello'] } });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
    expect((await http(apiUrl, 'GET', '/api/v1/usage', { token: stranger.plainKey })).body.words).toBe(0);
  });
});
