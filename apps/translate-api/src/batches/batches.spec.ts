import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { http, testAppEnv, type TestKey } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';
import { batchAccounts } from './batch-accounts.testing';

const SOFA = 'The cat is sleeping on the red sofa.';
const { createTestKey, deleteJobs } = batchAccounts();

/**
 * Submission and reading of batches. Translation is batch-worker's part (its own spec); a
 * worker of another test file may pick these jobs up, so states are asserted as "not failed".
 */
describe('POST /api/v1/batches', () => {
  let app: NestFastifyApplication;
  let url: string;
  let key: TestKey;

  const submit = (body: unknown, options: { token?: string; headers?: Record<string, string> } = {}) =>
    http(url, 'POST', '/api/v1/batches', { json: body, token: options.token ?? key.plainKey, headers: options.headers });
  const read = (job: string, token = key.plainKey) => http(url, 'GET', `/api/v1/batches/${job}`, { token });
  const usage = async (token = key.plainKey) => (await http(url, 'GET', '/api/v1/usage', { token })).body;

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ RATE_LIMIT_PER_MINUTE: '1000' })));
    url = await app.getUrl();
    key = await createTestKey();
  });
  afterAll(async () => {
    await app.close();
    await deleteJobs();
  });

  it('accepts a batch with 202, charges its words at once and shows its progress', async () => {
    const own = await createTestKey();
    const res = await submit({ target: 'es', source: 'en', texts: [SOFA, 'Good morning, my friend.'] }, { token: own.plainKey });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ ok: true, job: expect.stringMatching(/^job_[0-9A-Za-z]{24}$/), status: 'processing' });
    expect(await usage(own.plainKey)).toMatchObject({ words: 12, cost_cents: 1 });

    const view = await read(res.body.job, own.plainKey);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      ok: true,
      job: res.body.job,
      status: expect.stringMatching(/^(processing|done)$/),
      target: 'es',
      tier: 'basic',
      created_at: expect.any(String),
      progress: { total: 2 },
      words: 12,
      cost_cents: 1,
    });
  });

  it('accepts 1,000 texts of 1,000,000 characters in all', async () => {
    const unlimited = await createTestKey({ sandbox: false });
    const text = `${'The red cat sleeps. '.repeat(49)}Good night!!!!!!!!!!`;
    expect(text).toHaveLength(1000);
    const res = await submit({ target: 'es', source: 'en', texts: Array.from({ length: 1000 }, () => text) }, { token: unlimited.plainKey });
    expect(res.status).toBe(202);
    expect((await read(res.body.job, unlimited.plainKey)).body).toMatchObject({ progress: { total: 1000 }, words: 1000 * 198 });
  });

  it.each([
    ['1,001 texts', { texts: Array.from({ length: 1001 }, () => 'Hello') }, 'At most 1000 texts per batch, got 1001; submit several batches'],
    ['1,000,001 characters', { texts: ['a'.repeat(500_000), 'b'.repeat(500_001)] }, 'At most 1000000 characters per batch, got 1000001; submit several batches'],
  ])('refuses %s with 413, charging nothing', async (_, body, message) => {
    const res = await submit({ target: 'es', source: 'en', ...body });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'payload_too_large', message });
    expect(await usage()).toMatchObject({ words: 0 });
  });

  it('refuses a batch past the monthly limit with 402, accepting and charging nothing', async () => {
    const limited = await createTestKey({ monthlyWordLimit: 10 });
    const res = await submit({ target: 'es', source: 'en', texts: [SOFA, SOFA] }, { token: limited.plainKey });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ error: 'quota_exceeded', message: expect.stringContaining('this request needs 16 words, 10 of 10 remain') });
    expect(await usage(limited.plainKey)).toMatchObject({ words: 0 });
  });

  it.each([
    [{ target: 'es', texts: [] }, 'texts must hold at least one text'],
    [{ target: 'es', texts: [''] }, 'texts must not contain empty strings'],
    [{ target: 'es', texts: [3] }, 'each value in texts must be a string'],
    [{ target: 'spanish', texts: ['Hi'] }, 'target must be an ISO 639-1 code such as "de"'],
    [{ target: 'es', texts: ['Hi'], format: 'pdf' }, 'format must be one of the following values: text, html, json'],
    [{ target: 'es', texts: ['Hi'], glossary: randomUUID() }, 'Unknown glossary'],
    [{ target: 'de', source: 'en', texts: ['Hi'] }, 'target language de is not available'],
    [{ target: 'es', texts: ['Hi'], colour: 'red' }, 'property colour should not exist'],
  ])('answers %j with 422 unsupported_language', async (body, message) => {
    const res = await submit(body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'unsupported_language', message: expect.stringContaining(message) });
  });

  it('checks every text against its format at submission and names the invalid one by its batch index', async () => {
    const texts = Array.from({ length: 80 }, (_, i) => JSON.stringify({ title: `Item ${i} is red` }));
    texts[63] = '{"title": "broken"';
    const res = await submit({ target: 'es', source: 'en', format: 'json', texts });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'unsupported_language', message: expect.stringMatching(/^texts\[63\] is not valid JSON/) });
    expect(await usage()).toMatchObject({ words: 0 });
  });

  it("answers 404 for another account's job, an unknown job and a malformed id alike", async () => {
    const owner = await createTestKey();
    const accepted = await submit({ target: 'es', source: 'en', texts: [SOFA] }, { token: owner.plainKey });
    const stranger = await createTestKey();
    for (const [job, token] of [
      [accepted.body.job, stranger.plainKey],
      ['job_000000000000000000000000', owner.plainKey],
      ['not-a-job', owner.plainKey],
    ]) {
      const res = await read(job, token);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'not_found', message: `Batch job ${job} not found` });
    }
  });

  it('accepts a batch once per Idempotency-Key and charges it once', async () => {
    const own = await createTestKey();
    const headers = { 'idempotency-key': randomUUID() };
    const body = { target: 'es', source: 'en', texts: [SOFA] };
    const first = await submit(body, { token: own.plainKey, headers });
    const again = await submit(body, { token: own.plainKey, headers });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.body.job).toBe(first.body.job);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await usage(own.plainKey)).toMatchObject({ words: 8 });
  });

  it('documents both routes in the OpenAPI document', async () => {
    const { body } = await http(url, 'GET', '/openapi.json');
    expect(Object.keys(body.paths['/api/v1/batches'].post.responses)).toEqual(expect.arrayContaining(['202', '402', '413', '422']));
    expect(body.paths['/api/v1/batches/{job}'].get.responses['404']).toBeDefined();
    expect(body.components.schemas.BatchRequestDto.properties.texts.description).toMatch(/^1 to 1,000 texts/);
  });
});
