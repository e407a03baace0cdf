import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, testAppEnv, type TestKey } from '@platform/testing';
import { translate } from 'libretranslate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../../config/translate-api.config';
import { serveTranslateApi } from '../../translate-api.app';

const SOFA = 'The cat is sleeping on the red sofa.';

const start = (env: Record<string, string> = {}) => serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ RATE_LIMIT_PER_MINUTE: '1000', ...env })));

describe('LibreTranslate API through the libretranslate client and as LibreTranslate documents it, over Apertium', () => {
  let app: NestFastifyApplication;
  let apiurl: string;
  let key: TestKey;

  beforeAll(async () => {
    app = await start();
    apiurl = await app.getUrl();
    key = await createTestKey();
  });
  afterAll(() => app.close());

  it('translates text and html with the npm client, which sends its key as apiKey', async () => {
    expect(await translate({ query: SOFA, source: 'en', target: 'es', apiurl, apiKey: key.plainKey })).toBe('El gato está durmiendo en el sofá rojo.');
    expect(await translate({ query: '<p>Read <b>the book</b> today.</p>', source: 'en', target: 'es', format: 'html', apiurl, apiKey: key.plainKey })).toBe(
      '<p>Leído <b>el libro</b> hoy.</p>',
    );
  });

  it('detects the source with auto, a language per text of an array', async () => {
    expect(await translate({ query: 'El gato duerme en el sofá rojo de la casa.', target: 'en', apiurl, apiKey: key.plainKey })).toMatch(/cat/i);
    const res = await http(apiurl, 'POST', '/translate', {
      json: { q: ['El gato duerme en el sofá rojo de la casa.', SOFA], source: 'auto', target: 'es', api_key: key.plainKey },
    });
    expect(res.status).toBe(200);
    expect(res.body.translatedText).toHaveLength(2);
    expect(res.body.translatedText[1]).toBe('El gato está durmiendo en el sofá rojo.');
    expect(res.body.detectedLanguage).toEqual([
      { confidence: 90, language: 'es' },
      { confidence: 90, language: 'en' },
    ]);
  });

  it('takes a form body and the key as a bearer header', async () => {
    const res = await http(apiurl, 'POST', '/translate', {
      body: new URLSearchParams({ q: SOFA, source: 'en', target: 'es' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${key.plainKey}` },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ translatedText: 'El gato está durmiendo en el sofá rojo.' });
  });

  it('lists languages with their targets without a key, and detects a language', async () => {
    const languages = await http(apiurl, 'GET', '/languages');
    expect(languages.status).toBe(200);
    expect(languages.body).toContainEqual({ code: 'en', name: 'English', targets: expect.arrayContaining(['es']) });

    const detected = await http(apiurl, 'POST', '/detect', { json: { q: 'El gato duerme en el sofá rojo de la casa.', api_key: key.plainKey } });
    expect(detected.status).toBe(200);
    expect(detected.body).toEqual([{ confidence: 90, language: 'es' }]);

    const settings = await http(apiurl, 'GET', '/frontend/settings');
    expect(settings.body).toMatchObject({ keyRequired: true, charLimit: 30000 });
  });

  it('answers a bad or missing key with 403 and {"error"}, which the client turns into no translation', async () => {
    expect(await translate({ query: SOFA, source: 'en', target: 'es', apiurl, apiKey: `svc_test_${'x'.repeat(40)}` })).toBeUndefined();
    for (const json of [{ q: SOFA, source: 'en', target: 'es', api_key: 'nope' }, { q: SOFA, source: 'en', target: 'es' }]) {
      const res = await http(apiurl, 'POST', '/translate', { json });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
  });

  it('serves the libretranslate engine of another deployment', async () => {
    const downstream = await start({ TRANSLATION_ENGINE: 'libretranslate', LIBRETRANSLATE_URL: apiurl, LIBRETRANSLATE_API_KEY: key.plainKey });
    try {
      const own = await createTestKey();
      const res = await http(await downstream.getUrl(), 'POST', '/api/v1/translate', { token: own.plainKey, json: { source: 'en', target: 'es', texts: [SOFA, 'Read <b>the book</b>.'], format: 'html' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-translation-engine')).toBe('libretranslate');
      // The adapter sends the inline text as a segment of its own, which Apertium then starts with a capital.
      expect(res.body.translations).toEqual(['El gato está durmiendo en el sofá rojo.', expect.stringMatching(/^Leído <b>el libro<\/b>\.$/i)]);
    } finally {
      await downstream.close();
    }
  });
});
