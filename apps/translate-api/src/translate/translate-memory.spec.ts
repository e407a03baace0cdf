import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ReviewerService } from '@platform/review';
import { insertJobInReview } from '@platform/review/testing';
import { loadConfig } from '@platform/service-kit';
import { corpusText, createTestKey, http, testAppEnv, type TestKey } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

const SOFA = 'The cat is sleeping on the red sofa.';

describe('POST /api/v1/translate with translation memory', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ RATE_LIMIT_PER_MINUTE: '1000' })));
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  const translate = (key: TestKey, json: object) => http(url, 'POST', '/api/v1/translate', { token: key.plainKey, json });
  const usage = async (key: TestKey) => (await http(url, 'GET', '/api/v1/usage', { token: key.plainKey })).body;
  const engineOf = (res: { headers: Headers }) => res.headers.get('x-translation-engine');

  /** A memory of `key`'s account and mode holding `entries` ([source, target] in `source`→`target`). */
  async function memoryWith(key: TestKey, entries: [string, string][], target = 'es', source = 'en') {
    const created = await http(url, 'POST', '/api/v1/memories', { token: key.plainKey, json: { name: `m-${randomUUID()}` } });
    expect(created.status).toBe(201);
    const { id } = created.body.memory;
    for (const [from, to] of entries) {
      const added = await http(url, 'POST', `/api/v1/memories/${id}/entries`, { token: key.plainKey, json: { source_lang: source, target_lang: target, source: from, target: to } });
      expect(added.status).toBe(201);
    }
    return id as string;
  }

  describe("a reviewer's edit", () => {
    const SOURCE = 'Delete {count} <b>old</b> files';
    const EDIT = 'Borra los {count} ficheros <b>antiguos</b>';

    /** A live review job of `key` whose one text a reviewer of the account edits to EDIT. */
    async function reviewerEdits(key: TestKey) {
      const job = await insertJobInReview(app, { key, target: 'es', source: SOURCE, translation: 'Eliminar {count} archivos <b>viejos</b>' });
      const { token } = await app.get(ReviewerService).create(['es'], { accountId: key.accountId });
      const next = await http(url, 'GET', '/api/v1/review/tasks/next?lang=es', { token });
      expect(next.body.task.job).toBe(job);
      const answered = await http(url, 'POST', `/api/v1/review/tasks/${next.body.task.id}`, { token, json: { verdict: 'edit', translation: EDIT } });
      expect(answered.status).toBe(200);
    }

    it('is used exactly for the same sentence in the next request of the account, variables and markup in place, and charged as words', async () => {
      const owner = await createTestKey({ sandbox: false, rateLimitPerMinute: 10_000 });
      await reviewerEdits(owner);

      const res = await translate(owner, { source: 'en', target: 'es', texts: [SOURCE, 'Delete {n} <b class="x">old</b> files', SOFA] });
      expect(res.status).toBe(200);
      expect(res.body.translations).toEqual([EDIT, 'Borra los {n} ficheros <b class="x">antiguos</b>', expect.stringMatching(/gato/)]);
      expect(res.body.origins).toEqual(['memory', 'memory', 'engine']);
      expect(engineOf(res)).toBe('memory,apertium');
      expect(res.body.untranslated).toBeUndefined();
      // Memory hits are words like any other, at the tier's price.
      const engineOnly = await translate(owner, { source: 'en', target: 'es', texts: [SOURCE, 'Delete {n} <b class="x">old</b> files', SOFA], memory: false });
      expect(res.body).toMatchObject({ words: engineOnly.body.words, cost_cents: engineOnly.body.cost_cents });

      // Memory off: the engine alone.
      expect(engineOnly.body.origins).toEqual(['engine', 'engine', 'engine']);
      expect(engineOnly.body.translations[0]).not.toBe(EDIT);
      expect(engineOf(engineOnly)).toBe('apertium');
    });

    it('is never used for another account, nor for the sandbox of the same account', async () => {
      const owner = await createTestKey({ sandbox: false, rateLimitPerMinute: 10_000 });
      await reviewerEdits(owner);
      const stranger = await createTestKey({ sandbox: false });
      const sandbox = await createTestKey({ sandbox: true, accountId: owner.accountId });
      for (const key of [stranger, sandbox]) {
        const res = await translate(key, { source: 'en', target: 'es', texts: [SOURCE] });
        expect(res.status).toBe(200);
        expect(res.body.origins).toEqual(['engine']);
        expect(res.body.translations[0]).not.toBe(EDIT);
        expect(engineOf(res)).toBe('apertium');
      }
    });
  });

  it('lets glossary terms win over memory in tier pro; in basic, where terms are hints, the memory stands', async () => {
    const key = await createTestKey({ rateLimitPerMinute: 10_000 });
    await memoryWith(key, [
      ['The red sofa is new.', 'El sofá rojo es nuevo.'],
      ['A sofa for two.', 'Un diván para dos.'],
    ]);
    const created = await http(url, 'POST', '/api/v1/glossaries', { token: key.plainKey, json: { name: 'furniture', source: 'en', entries: [{ term: 'sofa', translations: { es: 'diván' } }] } });
    const glossary = created.body.glossary.id;

    const pro = await translate(key, { source: 'en', target: 'es', tier: 'pro', glossary, texts: ['The red sofa is new.', 'A sofa for two.'] });
    expect(pro.status).toBe(200);
    expect(pro.body.translations[0]).toMatch(/diván/);
    expect(pro.body.translations[1]).toBe('Un diván para dos.');
    expect(pro.body.origins).toEqual(['engine', 'memory']);

    const basic = await translate(key, { source: 'en', target: 'es', glossary, texts: ['The red sofa is new.'] });
    expect(basic.body).toMatchObject({ translations: ['El sofá rojo es nuevo.'], origins: ['memory'] });
  });

  it('answers sentences of HTML and JSON from memory with their variables, markup and template syntax as sent', async () => {
    const key = await createTestKey({ rateLimitPerMinute: 10_000 });
    await memoryWith(key, [
      ['Delete {count} <b>old</b> files', 'Eliminar <b>los viejos</b> {count} archivos'],
      ['{{count}} files', 'Archivos: {{count}}'],
    ]);
    const html = await translate(key, { source: 'en', target: 'es', format: 'html', texts: ['<p>Delete {count} <b>old</b> files</p><p>Good morning</p>'] });
    expect(html.body.translations).toEqual(['<p>Eliminar <b>los viejos</b> {count} archivos</p><p>Buenos días</p>']);
    // Three of its five words from memory: the text's origin.
    expect(html.body.origins).toEqual(['memory']);
    expect(engineOf(html)).toBe('memory,apertium');

    const json = await translate(key, { source: 'en', target: 'es', format: 'json', texts: [JSON.stringify({ a: '{{count}} files', b: { c: 'Delete {n} <i>old</i> files' } })] });
    expect(JSON.parse(json.body.translations[0])).toEqual({ a: 'Archivos: {{count}}', b: { c: 'Eliminar <i>los viejos</i> {n} archivos' } });
    expect(json.body.origins).toEqual(['memory']);
  });

  describe('missing "keep" for a pair without an engine', () => {
    const EN = corpusText('locales/lemmy/backend/en.json');
    const DE = JSON.parse(corpusText('locales/lemmy/backend/de.json')) as Record<string, string>;
    /** Keys whose human German translation goes into the memory. */
    const KNOWN = ['registration_approved_subject', 'email_verified_body', 'notification_post_reply_subject'];

    it('is needed: without it, en→de stays 422', async () => {
      const key = await createTestKey();
      const languages = (await http(url, 'GET', '/api/v1/languages', { token: key.plainKey })).body;
      expect(languages.source.find((language: { code: string }) => language.code === 'en').targets).not.toContain('de');
      const res = await translate(key, { source: 'en', target: 'de', format: 'json', texts: [EN] });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: 'unsupported_language', message: expect.stringContaining('target language de is not available') });
    });

    it('gives an en→de locale file back with the memory translations, lists the other strings, and bills only what was translated', async () => {
      const key = await createTestKey({ rateLimitPerMinute: 10_000 });
      const source = JSON.parse(EN) as Record<string, string>;
      await memoryWith(key, KNOWN.map((name) => [source[name], DE[name]]), 'de');

      const res = await translate(key, { source: 'en', target: 'de', format: 'json', missing: 'keep', texts: [EN] });
      expect(res.status).toBe(200);
      const translated = JSON.parse(res.body.translations[0]) as Record<string, string>;
      // A string the file repeats under another key is the same sentence: translated too.
      const human = new Map(KNOWN.map((name) => [source[name], DE[name]]));
      const known = Object.keys(source).filter((name) => human.has(source[name]));
      const others = Object.keys(source).filter((name) => !human.has(source[name]));
      expect(known.length).toBeGreaterThan(KNOWN.length);
      expect(Object.fromEntries(known.map((name) => [name, translated[name]]))).toEqual(Object.fromEntries(known.map((name) => [name, human.get(source[name])])));
      expect(Object.fromEntries(others.map((name) => [name, translated[name]]))).toEqual(Object.fromEntries(others.map((name) => [name, source[name]])));
      expect(res.body.untranslated).toEqual([0]);
      expect(res.body.untranslated_paths).toEqual(others.map((name) => `/0/${name}`));
      expect(res.body.origins).toEqual(['memory']);
      expect(engineOf(res)).toBe('memory');

      // The words of the strings translated, as any request counts them, and nothing else.
      const counted = await translate(await createTestKey(), { source: 'en', target: 'es', texts: known.map((name) => source[name]), memory: false });
      expect(res.body.words).toBe(counted.body.words);
      expect(await usage(key)).toMatchObject({ words: counted.body.words, cost_cents: res.body.cost_cents });
    });

    it('gives texts no memory holds back as sent, free, and their indexes', async () => {
      const key = await createTestKey({ rateLimitPerMinute: 10_000 });
      await memoryWith(key, [['Open the file', 'Datei öffnen']], 'de');
      const res = await translate(key, { source: 'en', target: 'de', missing: 'keep', texts: ['Close it', 'Open the file', 'Open the file\nClose it'] });
      expect(res.body).toMatchObject({ translations: ['Close it', 'Datei öffnen', 'Datei öffnen\nClose it'], origins: ['none', 'memory', 'memory'], untranslated: [0, 2], words: 6 });
      expect(res.body.untranslated_paths).toBeUndefined();
      expect((await usage(key)).words).toBe(6);
    });

    it('takes the same path through the DeepL- and LibreTranslate-compatible routes', async () => {
      const key = await createTestKey({ rateLimitPerMinute: 10_000 });
      await memoryWith(key, [['Open the file', 'Datei öffnen']], 'de');
      const form = `text=Open%20the%20file&text=Close%20it&source_lang=EN&target_lang=DE&missing=keep`;
      const deepl = await http(url, 'POST', '/v2/translate', { body: form, headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `DeepL-Auth-Key ${key.plainKey}` } });
      expect(deepl.status).toBe(200);
      expect(deepl.body.translations).toEqual([
        { detected_source_language: 'EN', text: 'Datei öffnen', billed_characters: 18 },
        { detected_source_language: 'EN', text: 'Close it', billed_characters: 0 },
      ]);
      expect(engineOf(deepl)).toBe('memory');
      const refused = await http(url, 'POST', '/v2/translate', { body: form.replace('&missing=keep', ''), headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `DeepL-Auth-Key ${key.plainKey}` } });
      expect(refused.status).toBeGreaterThanOrEqual(400);

      const libre = await http(url, 'POST', '/translate', { token: key.plainKey, json: { q: ['Open the file', 'Close it'], source: 'en', target: 'de', missing: 'keep' } });
      expect(libre.body).toEqual({ translatedText: ['Datei öffnen', 'Close it'] });
      expect(engineOf(libre)).toBe('memory');
      expect((await usage(key)).words).toBe(6);
    });
  });

  it('refuses bad memory options and missing values with a 4xx in the envelope, charging nothing', async () => {
    const key = await createTestKey({ rateLimitPerMinute: 10_000 });
    const stranger = await createTestKey();
    const foreign = await memoryWith(stranger, [['Open', 'Abrir']]);
    const own = await memoryWith(key, [['Open', 'Abrir']]);
    const base = { source: 'en', target: 'es', texts: ['Open'] };
    const cases: [object, number, string][] = [
      [{ memory: 'yes' }, 422, 'memory must be true or false'],
      [{ memories: own }, 422, 'memories must be a list of memory ids'],
      [{ memories: ['not-a-uuid'] }, 422, 'memories must hold ids of your memories'],
      [{ memories: ['\u0000'] }, 422, 'memories must hold ids of your memories'],
      [{ memories: [own, own] }, 422, 'memories must not name a memory twice'],
      [{ memories: Array.from({ length: 21 }, () => randomUUID()) }, 422, 'memories names at most 20 memories'],
      [{ memories: [randomUUID()] }, 404, 'not found'],
      [{ memories: [foreign] }, 404, `Memory ${foreign} not found`],
      [{ memory: false, memories: [own] }, 422, 'memories names memories to use, but memory is false'],
      [{ missing: 'drop' }, 422, 'missing must be "keep" when given'],
      [{ missing: ['keep'] }, 422, 'missing must be "keep" when given'],
      [{ missing: 'keep', tier: 'review' }, 422, 'missing "keep" is not available in tier review'],
      [{ missing: 'keep', target: 'xx' }, 422, 'target language xx is not one of the 24 official EU languages'],
    ];
    for (const [options, status, message] of cases) {
      const res = await translate(key, { ...base, ...options });
      expect({ options, status: res.status }).toEqual({ options, status });
      expect(res.body).toEqual({ error: status === 404 ? 'not_found' : 'unsupported_language', message: expect.stringContaining(message) });
    }
    const batch = await http(url, 'POST', '/api/v1/batches', { token: key.plainKey, json: { ...base, memories: [foreign] } });
    expect(batch.status).toBe(404);
    expect((await usage(key)).words).toBe(0);
    // Its own memory, named, answers.
    expect((await translate(key, { ...base, memories: [own] })).body).toMatchObject({ translations: ['Abrir'], origins: ['memory'] });
  });
});
