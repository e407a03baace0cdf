import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, startLibreTranslateStandIn, testAppEnv, type StandIn, type TestKey } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

const start = (env: Record<string, string> = {}) => serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ RATE_LIMIT_PER_MINUTE: '1000', ...env })));

const SOFA = 'The cat is sleeping on the red sofa.';

describe('POST /api/v1/translate with Apertium', () => {
  let app: NestFastifyApplication;
  let url: string;
  let key: TestKey;

  const translate = (body: unknown, options: { token?: string; headers?: Record<string, string> } = {}) =>
    http(url, 'POST', '/api/v1/translate', { json: body, token: options.token ?? key.plainKey, headers: options.headers });
  const usage = async (token = key.plainKey) => (await http(url, 'GET', '/api/v1/usage', { token })).body;

  beforeAll(async () => {
    app = await start();
    url = await app.getUrl();
    key = await createTestKey();
  });
  afterAll(() => app.close());

  it('translates English into real Spanish and counts the source words', async () => {
    const res = await translate({ target: 'es', source: 'en', texts: [SOFA] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, target: 'es', tier: 'basic', words: 8, cost_cents: 1, detected_source: 'en' });
    expect(res.body.translations[0]).toMatch(/gato/);
    expect(res.body.translations[0]).toMatch(/sofá/);
    expect(res.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+$/);
  });

  it('translates English into French by pivoting through Spanish', async () => {
    const res = await translate({ target: 'fr', source: 'en', texts: [SOFA] });
    expect(res.status).toBe(200);
    expect(res.body.translations[0]).toMatch(/chat/);
  });

  it('detects the source language when it is not given', async () => {
    const res = await translate({ target: 'en', texts: ['El gato duerme en el sofá rojo de la casa.'] });
    expect(res.status).toBe(200);
    expect(res.body.detected_source).toBe('es');
    expect(res.body.translations[0]).toMatch(/cat/i);
  });

  it('detects each text of a mixed request on its own and translates it from its own language', async () => {
    const res = await translate({ target: 'en', texts: ['El gato duerme en el sofá rojo de la casa.', 'Le chat dort sur le canapé rouge de la maison.'] });
    expect(res.status).toBe(200);
    expect(res.body.detected_sources).toEqual(['es', 'fr']);
    expect(res.body.translations[0]).toMatch(/cat/i);
    // Read as Spanish, French keeps most of its words: "chat", "dort", "maison" would stay.
    expect(res.body.translations[1]).toMatch(/cat/i);
    expect(res.body.translations[1]).not.toMatch(/chat|dort|maison/);
  });

  it('refuses a text in a language no engine pair can bring into the target with 422 naming it, charging nothing', async () => {
    const before = await usage();
    const res = await translate({ target: 'es', texts: ['The cat is sleeping on the red sofa.', 'Die Katze schläft auf dem roten Sofa im Wohnzimmer.'] });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'unsupported_language', message: 'texts[1] is in de, which cannot be translated to es; see GET /api/v1/languages' });
    expect(await usage()).toEqual(before);
  });

  it('refuses a target the engine cannot do with 422, charging nothing', async () => {
    const before = await usage();
    const res = await translate({ target: 'de', source: 'en', texts: [SOFA] });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'unsupported_language', message: 'target language de is not available; see GET /api/v1/languages' });
    expect(await usage()).toEqual(before);
  });

  it('refuses a body nested thousands of levels deep with 422 instead of overflowing the stack', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    for (const body of [deep, `{"target":"es","texts":["a",${deep}]}`]) {
      const res = await http(url, 'POST', '/api/v1/translate', { body, token: key.plainKey, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: 'unsupported_language', message: 'The request body is nested more than 32 levels deep' });
    }
  });

  it('returns 50 texts in input order', async () => {
    const texts = Array.from({ length: 50 }, (_, i) => `I have ${i + 1} red cats.`);
    const res = await translate({ target: 'es', source: 'en', texts });
    expect(res.status).toBe(200);
    expect(res.body.translations).toHaveLength(50);
    res.body.translations.forEach((translation: string, i: number) => expect(translation).toContain(String(i + 1)));
  });

  it('answers tier review with 202 and a batch job charged at the review price, replaying the same job', async () => {
    const reviewer = await createTestKey();
    const headers = { 'Idempotency-Key': randomUUID() };
    const body = { target: 'es', source: 'en', tier: 'review', texts: [SOFA, SOFA] };
    const res = await translate(body, { token: reviewer.plainKey, headers });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ ok: true, job: expect.stringMatching(/^job_[0-9A-Za-z]{24}$/), status: 'processing' });

    const job = await http(url, 'GET', `/api/v1/batches/${res.body.job}`, { token: reviewer.plainKey });
    expect(job.body).toMatchObject({ status: 'processing', tier: 'review', words: 16, cost_cents: 2, progress: { done: 0, total: 2 } });
    expect(await usage(reviewer.plainKey)).toMatchObject({ words: 16, cost_cents: 2 });

    const replay = await translate(body, { token: reviewer.plainKey, headers });
    expect(replay.status).toBe(202);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(res.body);
    expect(await usage(reviewer.plainKey)).toMatchObject({ words: 16 });
  });

  it.each([
    ['51 texts', { texts: Array.from({ length: 51 }, () => 'Hello') }, /At most 50 texts/],
    ['30,001 characters', { texts: ['a'.repeat(15_000), 'b'.repeat(15_001)] }, /At most 30000 characters/],
  ])('refuses %s with 413', async (_, body, message) => {
    const res = await translate({ target: 'es', source: 'en', ...body });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'payload_too_large', message: expect.stringMatching(message) });
  });

  it.each([
    [{ target: 'es', texts: [] }, 'texts must hold at least one text'],
    [{ target: 'es', texts: [''] }, 'texts must not contain empty strings'],
    [{ target: 'es', texts: [3] }, 'each value in texts must be a string'],
    [{ target: 'spanish', texts: ['Hi'] }, 'target must be an ISO 639-1 code such as "de"'],
    [{ target: 'es', texts: ['Hi'], format: 'pdf' }, 'format must be one of the following values: text, html, json'],
    [{ target: 'es', texts: ['Hi'], tier: 'gold' }, 'tier must be one of the following values: basic, pro, review'],
    [{ target: 'es', texts: ['Hi'], glossary: 'nope' }, 'glossary must be the id of one of your glossaries'],
    [{ target: 'es', texts: ['Hi'], glossary: randomUUID() }, 'Unknown glossary'],
    [{ target: 'es', source: 'en', format: 'json', texts: ['{"a": '] }, 'texts[0] is not valid JSON'],
    [{ target: 'es', texts: ['Hi'], colour: 'red' }, 'property colour should not exist'],
  ])('answers %j with 422 unsupported_language', async (body, message) => {
    const res = await translate(body);
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('unsupported_language');
    expect(res.body.message).toContain(message);
  });

  it('keeps every tag and the script of HTML byte for byte, translating the title attribute', async () => {
    const html = '<p>Hello <b>world</b>, <a href="/x" title="Home">click here</a>.</p><script>var a="hello";</script>';
    const res = await translate({ target: 'es', source: 'en', format: 'html', texts: [html] });
    expect(res.status).toBe(200);
    const [out] = res.body.translations as string[];
    const markup = (s: string) => s.match(/<[^>]+>/g);
    expect(markup(out)).toEqual(markup(html.replace('title="Home"', 'title="Casa"')));
    expect(out).toContain('<script>var a="hello";</script>');
    expect(out).not.toContain('Hello');
    expect(res.body.words).toBe(5);
  });

  it('translates only the string values of JSON and does not count keys or variables', async () => {
    const json = '{"title":"Good morning","count":3,"nested":{"items":["Thank you","{name} has arrived"]}}';
    const res = await translate({ target: 'es', source: 'en', format: 'json', texts: [json] });
    expect(res.status).toBe(200);
    const out = JSON.parse(res.body.translations[0]);
    expect(Object.keys(out)).toEqual(['title', 'count', 'nested']);
    expect(out.count).toBe(3);
    expect(out.title).not.toBe('Good morning');
    expect(out.nested.items[1]).toMatch(/^\{name\} /);
    expect(res.body.words).toBe(6);
  });

  it('gives an ARB file the target locale and leaves its @ metadata untranslated and uncounted', async () => {
    const arb = '{"@@locale": "en", "title": "Good morning", "@title": {"description": "Greeting on the home page"}}';
    const res = await translate({ target: 'es', source: 'en', format: 'json', texts: [arb] });
    expect(res.status).toBe(200);
    expect(res.body.translations).toEqual(['{"@@locale": "es", "title": "Buenos días", "@title": {"description": "Greeting on the home page"}}']);
    expect(res.body.words).toBe(2);
  });

  describe('glossaries', () => {
    let glossaryId: string;

    beforeAll(async () => {
      const res = await http(url, 'POST', '/api/v1/glossaries', {
        token: key.plainKey,
        json: { name: 'furniture', source: 'en', entries: [{ term: 'sofa', translations: { es: 'diván' } }] },
      });
      expect(res.status).toBe(201);
      glossaryId = res.body.glossary.id;
    });

    it('enforces the term exactly in tier pro, where the engine puts the word and with its capital', async () => {
      const res = await translate({ target: 'es', source: 'en', tier: 'pro', glossary: glossaryId, texts: [SOFA, 'Sofa for sale.'] });
      expect(res.status).toBe(200);
      expect(res.body.translations).toEqual(['El gato está durmiendo en el diván rojo.', 'Diván para venta.']);
      expect(res.body.cost_cents).toBe(1);
    });

    it('enforces it inside inline HTML markup', async () => {
      const res = await translate({ target: 'es', source: 'en', tier: 'pro', format: 'html', glossary: glossaryId, texts: ['<p>The cat is sleeping on the <b>sofa</b>.</p>'] });
      expect(res.status).toBe(200);
      expect(res.body.translations).toEqual(['<p>El gato está durmiendo en el <b>diván</b>.</p>']);
    });

    it('does not force it in tier basic', async () => {
      const res = await translate({ target: 'es', source: 'en', tier: 'basic', glossary: glossaryId, texts: [SOFA] });
      expect(res.status).toBe(200);
      expect(res.body.translations).toEqual(['El gato está durmiendo en el sofá rojo.']);
    });

    it("refuses another account's glossary as unknown", async () => {
      const stranger = await createTestKey();
      const res = await translate({ target: 'es', source: 'en', tier: 'pro', glossary: glossaryId, texts: [SOFA] }, { token: stranger.plainKey });
      expect(res.status).toBe(422);
    });
  });

  it('refuses a request past the monthly limit whole, translating and charging nothing', async () => {
    const limited = await createTestKey({ monthlyWordLimit: 10 });
    expect((await translate({ target: 'es', source: 'en', texts: [SOFA] }, { token: limited.plainKey })).status).toBe(200);
    const res = await translate({ target: 'es', source: 'en', texts: [SOFA] }, { token: limited.plainKey });
    expect(res.status).toBe(402);
    expect(res.body.error).toBe('quota_exceeded');
    expect(await usage(limited.plainKey)).toMatchObject({ words: 8, limit: 10, remaining: 2 });
  });

  describe('Idempotency-Key', () => {
    it('replays the first response without translating or charging again', async () => {
      const own = await createTestKey();
      const headers = { 'idempotency-key': randomUUID() };
      const body = { target: 'es', source: 'en', texts: [SOFA] };
      const first = await translate(body, { token: own.plainKey, headers });
      const second = await translate(body, { token: own.plainKey, headers });
      expect(second.status).toBe(200);
      expect(second.text).toBe(first.text);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(await usage(own.plainKey)).toMatchObject({ words: 8 });

      const changed = await translate({ ...body, texts: ['Another text'] }, { token: own.plainKey, headers });
      expect(changed.status).toBe(422);
      expect(changed.body.error).toBe('idempotency_key_reused');
    });

    it('runs ten concurrent identical requests once and charges once', async () => {
      const own = await createTestKey();
      const headers = { 'idempotency-key': randomUUID() };
      const body = { target: 'es', source: 'en', texts: [SOFA] };
      const results = await Promise.all(Array.from({ length: 10 }, () => translate(body, { token: own.plainKey, headers })));
      const statuses = results.map((r) => r.status);
      expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
      expect(results.filter((r) => r.status === 200 && !r.headers.get('idempotent-replayed'))).toHaveLength(1);
      expect(await usage(own.plainKey)).toMatchObject({ words: 8 });
    });
  });
});

describe('POST /api/v1/translate when the engine fails', () => {
  let engine: StandIn;
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    engine = await startLibreTranslateStandIn();
    app = await start({ TRANSLATION_ENGINE: 'libretranslate', LIBRETRANSLATE_URL: engine.url });
    url = await app.getUrl();
  });
  afterAll(async () => {
    await app.close();
    await engine.stop();
  });

  it('translates through LibreTranslate', async () => {
    const key = await createTestKey();
    const res = await http(url, 'POST', '/api/v1/translate', { token: key.plainKey, json: { target: 'de', source: 'en', texts: ['Hello world'] } });
    expect(res.status).toBe(200);
    expect(res.body.translations).toEqual(['Hallo Welt']);
  });

  it('answers 503 and refunds the words when the engine keeps failing', async () => {
    const key = await createTestKey();
    engine.disrupt({ status: 500, path: '/translate', times: 10 });
    const res = await http(url, 'POST', '/api/v1/translate', { token: key.plainKey, json: { target: 'de', source: 'en', texts: ['Hello world'] } });
    expect(res.status).toBe(503);
    expect(res.body.error).toBe('service_unavailable');
    expect((await http(url, 'GET', '/api/v1/usage', { token: key.plainKey })).body).toMatchObject({ words: 0, cost_cents: 0 });
  });
});
