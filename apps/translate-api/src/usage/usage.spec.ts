import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { WordQuotaService } from '@platform/quota';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, testAppEnv, testPrincipal } from '@platform/testing';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

describe('GET /api/v1/usage', () => {
  let app: NestFastifyApplication;
  let url: string;
  let quota: WordQuotaService;
  const thisMonth = () => new Date().toISOString().slice(0, 7);

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ SANDBOX_MONTHLY_WORDS: '5000' })));
    url = await app.getUrl();
    quota = app.get(WordQuotaService);
  });
  afterAll(() => app.close());

  const usage = (token: string) => http(url, 'GET', '/api/v1/usage', { token });

  it('reports an unused sandbox key with the test quota as its limit', async () => {
    const key = await createTestKey();
    const res = await usage(key.plainKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      month: thisMonth(),
      words: 0,
      cost_cents: 0,
      limit: 5000,
      remaining: 5000,
      account: { mode: 'sandbox', words: 0, cost_cents: 0, limit: 5000, remaining: 5000 },
    });
  });

  it("adds up this month's charges and leaves out other months", async () => {
    const key = await createTestKey({ sandbox: false, monthlyWordLimit: 1000 });
    const principal = testPrincipal(key, { monthlyWordLimit: 1000 });
    await quota.charge({ key: principal, words: 120, costCents: 3 });
    await quota.charge({ key: principal, words: 80, costCents: 4 });
    const lastMonth = new Date();
    lastMonth.setUTCDate(0);
    await quota.charge({ key: principal, words: 500, costCents: 20, at: lastMonth });

    expect((await usage(key.plainKey)).body).toEqual({
      ok: true,
      month: thisMonth(),
      words: 200,
      cost_cents: 7,
      limit: 1000,
      remaining: 800,
      account: { mode: 'live', words: 200, cost_cents: 7, limit: null, remaining: null },
    });
  });

  it('answers null limit and remaining for an unlimited production key', async () => {
    const key = await createTestKey({ sandbox: false });
    await quota.charge({ key: testPrincipal(key), words: 10_000, costCents: 400 });
    expect((await usage(key.plainKey)).body).toMatchObject({ words: 10_000, cost_cents: 400, limit: null, remaining: null });
  });

  it("holds sandbox keys to their account's test quota even when their own limit is higher", async () => {
    const generous = await createTestKey({ monthlyWordLimit: 1_000_000 });
    expect((await usage(generous.plainKey)).body).toMatchObject({ limit: 5000, remaining: 5000 });
    const strict = await createTestKey({ monthlyWordLimit: 300 });
    expect((await usage(strict.plainKey)).body).toMatchObject({ limit: 300, remaining: 300 });
  });

  it('never reports negative remaining words after the limit was lowered', async () => {
    const key = await createTestKey({ sandbox: false, monthlyWordLimit: 100 });
    await quota.charge({ key: testPrincipal(key, { monthlyWordLimit: 100 }), words: 90, costCents: 1 });
    await app.get(DataSource).query('UPDATE translation.api_keys SET monthly_word_limit = 50 WHERE id = $1', [key.keyId]);
    expect((await usage(key.plainKey)).body).toMatchObject({ words: 90, limit: 50, remaining: 0 });
  });

  it('refuses missing and unknown keys with 401 in the envelope', async () => {
    const missing = await http(url, 'GET', '/api/v1/usage');
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ error: 'invalid_key' });
    expect(missing.headers.get('ratelimit')).toBeNull();

    const unknown = await usage('svc_test_' + 'x'.repeat(40));
    expect(unknown.status).toBe(401);
    expect(unknown.body).toMatchObject({ error: 'invalid_key', message: expect.any(String) });
  });

  it('is described in the OpenAPI document', async () => {
    const { body } = await http(url, 'GET', '/openapi.json');
    const operation = body.paths['/api/v1/usage'].get;
    expect(operation.responses['200'].content['application/json'].schema.oneOf).toContainEqual({ $ref: '#/components/schemas/UsageResponseDto' });
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '429']));
    expect(body.components.schemas.UsageResponseDto.required).toEqual(
      expect.arrayContaining(['ok', 'month', 'words', 'cost_cents', 'limit', 'remaining']),
    );
  });
});
