import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, testAppEnv, type TestKey } from '@platform/testing';
import { AuthorizationError, QuotaExceededError, TooManyRequestsError, Translator } from 'deepl-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../../config/translate-api.config';
import { serveTranslateApi } from '../../translate-api.app';

const SOFA = 'The cat is sleeping on the red sofa.';

describe('DeepL API v2 through the deepl-node client, over Apertium', () => {
  let app: NestFastifyApplication;
  let serverUrl: string;
  let key: TestKey;
  let translator: Translator;

  // Apertium on a shared machine can take longer than deepl-node's default 5 s per request.
  const client = (authKey: string) => new Translator(authKey, { serverUrl, maxRetries: 0, minTimeout: 60_000 });

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ RATE_LIMIT_PER_MINUTE: '1000' })));
    serverUrl = await app.getUrl();
    key = await createTestKey();
    translator = client(key.plainKey);
  });
  afterAll(() => app.close());

  it('translates one text, naming the source language it was given', async () => {
    const result = await translator.translateText(SOFA, 'en', 'es');
    expect(result.text).toBe('El gato está durmiendo en el sofá rojo.');
    expect(result.detectedSourceLang).toBe('en');
    expect(result.billedCharacters).toBe(8 * 6);
  });

  it('translates an array, detecting each text', async () => {
    const results = await translator.translateText(['El gato duerme en el sofá rojo de la casa.', 'The dog is sleeping.'], null, 'es');
    expect(results.map((r) => r.detectedSourceLang)).toEqual(['es', 'en']);
    // A text already in the target language comes back as sent, free of charge.
    expect(results[0]).toMatchObject({ text: 'El gato duerme en el sofá rojo de la casa.', billedCharacters: 0 });
    expect(results[1].text).toMatch(/perro/);
  });

  it("keeps the markup with tagHandling 'html'", async () => {
    const result = await translator.translateText('<p>Read <b>the book</b> today.</p>', 'en', 'es', { tagHandling: 'html', formality: 'prefer_more', preserveFormatting: true });
    expect(result.text).toBe('<p>Leído <b>el libro</b> hoy.</p>');
  });

  it('lists source and target languages in DeepL codes', async () => {
    const sources = await translator.getSourceLanguages();
    const targets = await translator.getTargetLanguages();
    expect(sources.map((l) => l.code)).toContain('en');
    expect(sources.find((l) => l.code === 'es')?.name).toBe('Spanish');
    expect(targets.map((l) => l.code)).toEqual(expect.arrayContaining(['en-GB', 'es', 'fr']));
    expect(targets.find((l) => l.code === 'es')?.supportsFormality).toBe(false);
  });

  it('reports the month in characters, six per charged word, next to the words', async () => {
    const own = await createTestKey({ monthlyWordLimit: 1000 });
    await client(own.plainKey).translateText(SOFA, 'en', 'es');
    const usage = await client(own.plainKey).getUsage();
    expect(usage.character).toMatchObject({ count: 8 * 6, limit: 1000 * 6 });
    const raw = await http(serverUrl, 'GET', '/v2/usage', { headers: { authorization: `DeepL-Auth-Key ${own.plainKey}` } });
    expect(raw.body).toEqual({ character_count: 48, character_limit: 6000, words: 8, word_limit: 1000 });
  });

  it('creates, lists, reads, uses and deletes a glossary', async () => {
    const own = client((await createTestKey()).plainKey);
    const glossary = await own.createGlossary('furniture', 'en', 'es', new (await import('deepl-node')).GlossaryEntries({ entries: { sofa: 'diván' } }));
    expect(glossary).toMatchObject({ name: 'furniture', ready: true, sourceLang: 'en', targetLang: 'es', entryCount: 1 });
    expect((await own.listGlossaries()).map((g) => g.glossaryId)).toEqual([glossary.glossaryId]);
    expect((await own.getGlossaryEntries(glossary)).entries()).toEqual({ sofa: 'diván' });

    const result = await own.translateText(SOFA, 'en', 'es', { glossary });
    expect(result.text).toBe('El gato está durmiendo en el diván rojo.');

    await own.deleteGlossary(glossary);
    expect(await own.listGlossaries()).toEqual([]);
    await expect(own.getGlossary(glossary.glossaryId)).rejects.toThrow(/Glossary not found/);
  });

  it('raises AuthorizationError for a key it does not know', async () => {
    await expect(client(`svc_test_${'x'.repeat(40)}`).translateText(SOFA, 'en', 'es')).rejects.toBeInstanceOf(AuthorizationError);
  });

  it('raises QuotaExceededError once the monthly words are used up, charging nothing more', async () => {
    const limited = await createTestKey({ monthlyWordLimit: 10 });
    await client(limited.plainKey).translateText(SOFA, 'en', 'es');
    await expect(client(limited.plainKey).translateText(SOFA, 'en', 'es')).rejects.toBeInstanceOf(QuotaExceededError);
    expect((await client(limited.plainKey).getUsage()).character?.count).toBe(8 * 6);
  });

  it('raises TooManyRequestsError past the rate limit, with Retry-After', async () => {
    const slow = await createTestKey({ rateLimitPerMinute: 1 });
    await client(slow.plainKey).getUsage();
    await expect(client(slow.plainKey).getUsage()).rejects.toBeInstanceOf(TooManyRequestsError);
    const raw = await http(serverUrl, 'GET', '/v2/usage', { headers: { authorization: `DeepL-Auth-Key ${slow.plainKey}` } });
    expect(raw.status).toBe(429);
    expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(raw.body).toEqual({ message: expect.stringContaining('Rate limit'), detail: 'rate_limited' });
  });
});
