import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTranslationClient, isUsageHistory } from '@platform/api-client';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, describeApiClientContract, testAppEnv } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

const start = (env: NodeJS.ProcessEnv) => serveTranslateApi(loadConfig(TranslateApiConfig, env));

describeApiClientContract({ service: 'translate-api', start });

describe('the typed translation client (libs/api-client) against translate-api', () => {
  let app: NestFastifyApplication;
  let baseUrl: string;

  beforeAll(async () => {
    app = await start(testAppEnv());
    baseUrl = await app.getUrl();
  });
  afterAll(() => app.close());

  it('translates a text and reads the usage it was billed', async () => {
    const client = createTranslationClient({ baseUrl, apiKey: (await createTestKey()).plainKey });
    const translated = await client.POST('/api/v1/translate', { body: { source: 'en', target: 'es', texts: ['The cat is sleeping on the red sofa.'] } });
    expect(translated.response.status).toBe(200);
    expect(translated.error).toBeUndefined();
    expect(translated.data).toMatchObject({ ok: true, target: 'es', tier: 'basic', words: 8, translations: [expect.stringMatching(/gato.*sofá/)] });

    const usage = await client.GET('/api/v1/usage');
    expect(usage.data).toMatchObject({ ok: true, words: 8, account: { mode: 'sandbox', words: 8 } });
  });

  it("tells this month's usage from the history, which the query parameters ask for", async () => {
    const client = createTranslationClient({ baseUrl, apiKey: (await createTestKey()).plainKey });
    const month = await client.GET('/api/v1/usage');
    const history = await client.GET('/api/v1/usage', { params: { query: { granularity: 'month' } } });
    expect(month.data && isUsageHistory(month.data)).toBe(false);
    expect(history.data && isUsageHistory(history.data) ? history.data.periods : []).toHaveLength(12);
  });

  it('answers a refusal as the typed error envelope', async () => {
    const client = createTranslationClient({ baseUrl, apiKey: `svc_test_${'x'.repeat(40)}` });
    const { data, error, response } = await client.GET('/api/v1/usage');
    expect(response.status).toBe(401);
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ error: 'invalid_key', message: expect.any(String) });
  });
});
