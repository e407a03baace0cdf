import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, leaseRedisDatabase, testAppEnv, type TestKey } from '@platform/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

const SOFA = 'The cat is sleeping on the red sofa.';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const BODY_LIMIT = 64 * 1024;

describe('the compatible APIs next to /api/v1', () => {
  let app: NestFastifyApplication;
  let url: string;
  let key: TestKey;

  const usage = async (token: string) => (await http(url, 'GET', '/api/v1/usage', { token })).body;
  const deepl = (body: unknown, headers: Record<string, string> = {}, token = key.plainKey) =>
    http(url, 'POST', '/v2/translate', typeof body === 'string' ? { body, headers: { ...FORM, ...headers, authorization: `DeepL-Auth-Key ${token}` } } : { json: body, token, headers });
  const libre = (body: unknown, headers: Record<string, string> = {}) =>
    http(url, 'POST', '/translate', typeof body === 'string' ? { body, headers: { ...FORM, ...headers }, token: key.plainKey } : { json: body, token: key.plainKey, headers });

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ RATE_LIMIT_PER_MINUTE: '1000', MAX_BODY_BYTES: String(BODY_LIMIT) })));
    url = await app.getUrl();
    key = await createTestKey();
  });
  afterAll(() => app.close());

  it('gives the same translation and charges the same through /api/v1/translate, /v2/translate and /translate', async () => {
    const [ours, deeplKey, libreKey] = await Promise.all([createTestKey(), createTestKey(), createTestKey()]);
    const texts = [SOFA, 'Read the book today.'];
    const v1 = await http(url, 'POST', '/api/v1/translate', { token: ours.plainKey, json: { source: 'en', target: 'es', texts } });
    const v2 = await http(url, 'POST', '/v2/translate', { token: deeplKey.plainKey, json: { source_lang: 'EN', target_lang: 'ES', text: texts } });
    const lt = await http(url, 'POST', '/translate', { token: libreKey.plainKey, json: { source: 'en', target: 'es', q: texts } });
    expect([v1.status, v2.status, lt.status]).toEqual([200, 200, 200]);
    expect(v2.body.translations.map((t: { text: string }) => t.text)).toEqual(v1.body.translations);
    expect(lt.body.translatedText).toEqual(v1.body.translations);
    const charged = await Promise.all([ours, deeplKey, libreKey].map((k) => usage(k.plainKey)));
    expect(charged.map(({ words, cost_cents }) => ({ words, cost_cents }))).toEqual(Array(3).fill({ words: v1.body.words, cost_cents: v1.body.cost_cents }));
    expect(v2.body.translations.reduce((sum: number, t: { billed_characters: number }) => sum + t.billed_characters, 0)).toBe(v1.body.words * 6);
  });

  it('honours Idempotency-Key on /v2/translate and /translate, charging once', async () => {
    for (const path of ['/v2/translate', '/translate']) {
      const own = await createTestKey();
      const json = path === '/translate' ? { q: SOFA, source: 'en', target: 'es' } : { text: [SOFA], source_lang: 'EN', target_lang: 'ES' };
      const headers = { 'idempotency-key': `same-${path}` };
      const first = await http(url, 'POST', path, { token: own.plainKey, json, headers });
      const again = await http(url, 'POST', path, { token: own.plainKey, json, headers });
      expect(again.text).toBe(first.text);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect((await usage(own.plainKey)).words).toBe(8);
    }
  });

  it('takes a DeepL form body with text repeated', async () => {
    const res = await deepl(`text=${encodeURIComponent(SOFA)}&text=Hello&source_lang=EN&target_lang=ES&show_billed_characters=1&split_sentences=nonewlines`);
    expect(res.status).toBe(200);
    expect(res.body.translations.map((t: { text: string }) => t.text)).toEqual(['El gato está durmiendo en el sofá rojo.', 'Hola']);
  });

  it('lists DeepL languages by POST, with the type in a form body or none', async () => {
    const headers = { authorization: `DeepL-Auth-Key ${key.plainKey}` };
    const targets = await http(url, 'POST', '/v2/languages', { body: 'type=target', headers: { ...FORM, ...headers } });
    expect(targets.status).toBe(200);
    expect(targets.body).toContainEqual({ language: 'EN-GB', name: 'English (British)', supports_formality: false });
    const sources = await http(url, 'POST', '/v2/languages', { headers });
    expect(sources.status).toBe(200);
    expect(sources.body).toContainEqual({ language: 'EN', name: 'English' });
  });

  describe('careless and hostile input, each in its API\'s error shape', () => {
    const manyTexts = Array.from({ length: 51 }, () => 'Hello');
    const huge = 'a'.repeat(BODY_LIMIT + 1);

    it.each([
      ['missing target', { text: ['Hello'] }, 400, /target_lang/],
      ['unknown language', { text: ['Hello'], target_lang: 'XX' }, 400, /target_lang/],
      ['empty text array', { text: [], target_lang: 'ES' }, 400, /'text' not specified/],
      ['too many texts', { text: manyTexts, target_lang: 'ES' }, 413, /At most 50 texts/],
      ['oversized body', { text: [huge], target_lang: 'ES' }, 413, /size limit/],
      ['malformed form body', 'text=%E0%A4%A&target_lang=ES', 400, /percent-encoded/],
    ])('DeepL: %s', async (_, body, status, message) => {
      const res = await deepl(body);
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ message: expect.stringMatching(message), detail: expect.any(String) });
    });

    it.each([
      ['missing target', { q: 'Hello', source: 'en' }, 400, /missing target/],
      ['unknown language', { q: 'Hello', source: 'en', target: 'xx' }, 400, /xx/],
      ['empty text array', { q: [], source: 'en', target: 'es' }, 400, /missing q/],
      ['too many texts', { q: manyTexts, source: 'en', target: 'es' }, 400, /At most 50 texts/],
      ['oversized body', { q: huge, source: 'en', target: 'es' }, 400, /size limit/],
      ['malformed form body', 'q=%zz&source=en&target=es', 400, /percent-encoded/],
    ])('LibreTranslate: %s', async (_, body, status, message) => {
      const res = await libre(body);
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ error: expect.stringMatching(message) });
    });

    it('refuses a wrong content type with 415 in either shape', async () => {
      const deeplRes = await http(url, 'POST', '/v2/translate', { body: 'text=Hello', headers: { 'content-type': 'text/plain', authorization: `DeepL-Auth-Key ${key.plainKey}` } });
      expect(deeplRes.status).toBe(415);
      expect(deeplRes.body).toEqual({ message: expect.any(String), detail: 'unsupported_media_type' });
      const libreRes = await http(url, 'POST', '/translate', { body: 'q=Hello', headers: { 'content-type': 'text/plain' }, token: key.plainKey });
      expect(libreRes.status).toBe(415);
      expect(libreRes.body).toEqual({ error: expect.any(String) });
      // /api/v1 still takes no form bodies.
      const ours = await http(url, 'POST', '/api/v1/translate', { body: 'texts=Hello&target=es', headers: FORM, token: key.plainKey });
      expect(ours.status).toBe(415);
    });

    it("does not let a sandbox key see or use the live world's glossary", async () => {
      const live = await createTestKey({ sandbox: false });
      const sandbox = await createTestKey({ sandbox: true, accountId: live.accountId });
      const created = await http(url, 'POST', '/v2/glossaries', {
        token: live.plainKey,
        json: { name: 'live terms', source_lang: 'en', target_lang: 'es', entries: 'sofa\tdiván', entries_format: 'tsv' },
      });
      expect(created.status).toBe(201);
      const id = created.body.glossary_id;
      const used = await deepl({ text: [SOFA], source_lang: 'EN', target_lang: 'ES', glossary_id: id }, {}, sandbox.plainKey);
      expect(used.status).toBe(400);
      expect(used.body).toEqual({ message: expect.stringContaining('Unknown glossary'), detail: 'unsupported_language' });
      const read = await http(url, 'GET', `/v2/glossaries/${id}`, { token: sandbox.plainKey });
      expect(read.status).toBe(404);
      expect(read.body).toEqual({ message: expect.stringContaining('not found'), detail: 'not_found' });
      expect((await http(url, 'GET', '/v2/glossaries', { token: sandbox.plainKey })).body).toEqual({ glossaries: [] });
    });
  });

  it('answers none of the compatible routes with COMPAT_APIS=none', async () => {
    const off = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ COMPAT_APIS: 'none' })));
    try {
      const offUrl = await off.getUrl();
      expect((await http(offUrl, 'GET', '/v2/usage', { token: key.plainKey })).status).toBe(404);
      expect((await http(offUrl, 'GET', '/languages')).status).toBe(404);
    } finally {
      await off.close();
    }
  });

  it("counts DeepL's 403 for a bad key as a failed authentication of the address", async () => {
    const redis = await leaseRedisDatabase();
    const client = new Redis(redis.url);
    const guarded = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ REDIS_URL: redis.url, AUTH_FAILURES_PER_MINUTE: '2' })));
    try {
      // Counts of an earlier run within the minute would throttle this one from its first request.
      for (const stale of await client.keys('auth-failures:*')) await client.del(stale);
      const guardedUrl = await guarded.getUrl();
      const badKey = { authorization: `DeepL-Auth-Key svc_test_${'x'.repeat(40)}` };
      for (let i = 0; i < 2; i++) expect((await http(guardedUrl, 'GET', '/v2/usage', { headers: badKey })).status).toBe(403);
      const throttled = await http(guardedUrl, 'GET', '/v2/usage', { headers: badKey });
      expect(throttled.status).toBe(429);
      expect(throttled.body).toEqual({ message: expect.stringContaining('failed authentications'), detail: 'rate_limited' });
    } finally {
      await guarded.close();
      client.disconnect();
      await redis.release();
    }
  });

  it('refuses an unknown COMPAT_APIS entry at start', () => {
    expect(() => loadConfig(TranslateApiConfig, testAppEnv({ COMPAT_APIS: 'deepl,google' }))).toThrow(/COMPAT_APIS/);
  });
});
