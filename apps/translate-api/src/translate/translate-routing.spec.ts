import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { EU_LANGUAGES } from '@platform/contracts';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, modelsBetween, startLibreTranslateStandIn, testAppEnv, type StandIn } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

const HELLO = 'Hello world';
const SLEEPING = 'The dog is sleeping.';

describe('POST /api/v1/translate routed over Apertium and LibreTranslate', () => {
  let libre: StandIn;
  let port: number;
  let app: NestFastifyApplication;
  let url: string;

  const startLibre = () => startLibreTranslateStandIn({ port, models: modelsBetween(EU_LANGUAGES) });
  const translate = (token: string, body: Record<string, unknown>) => http(url, 'POST', '/api/v1/translate', { token, json: { source: 'en', texts: [HELLO], ...body } });
  const usage = async (token: string) => (await http(url, 'GET', '/api/v1/usage', { token })).body;
  const engineOf = (res: { headers: Headers }) => res.headers.get('x-translation-engine');

  beforeAll(async () => {
    libre = await startLibreTranslateStandIn({ models: modelsBetween(EU_LANGUAGES) });
    port = Number(new URL(libre.url).port);
    app = await serveTranslateApi(
      loadConfig(
        TranslateApiConfig,
        testAppEnv({
          RATE_LIMIT_PER_MINUTE: '1000',
          TRANSLATION_ENGINES: 'apertium,libretranslate',
          LIBRETRANSLATE_URL: libre.url,
          // Both engines do es->en directly; this one goes to LibreTranslate first.
          TRANSLATION_ROUTES: 'es-en:libretranslate',
        }),
      ),
    );
    url = await app.getUrl();
  });
  afterAll(async () => {
    await app?.close();
    await libre?.stop();
  });

  it('lists all 24 EU languages as sources and targets', async () => {
    const { plainKey } = await createTestKey();
    const res = await http(url, 'GET', '/api/v1/languages', { token: plainKey });
    expect(res.status).toBe(200);
    expect(res.body.target.map((language: { code: string }) => language.code)).toEqual([...EU_LANGUAGES].sort());
    expect(res.body.source.map((language: { code: string }) => language.code)).toEqual([...EU_LANGUAGES].sort());
  });

  it('sends en->de to LibreTranslate and en->es to Apertium, saying so, and counts words per engine', async () => {
    const { plainKey } = await createTestKey();
    const german = await translate(plainKey, { target: 'de' });
    expect(german.status).toBe(200);
    expect(german.body.translations).toEqual(['Hallo Welt']);
    expect(engineOf(german)).toBe('libretranslate');

    const spanish = await translate(plainKey, { target: 'es', texts: [SLEEPING] });
    expect(spanish.status).toBe(200);
    expect(spanish.body.translations[0]).toContain('perro');
    expect(engineOf(spanish)).toBe('apertium');

    const metrics = (await http(url, 'GET', '/metrics')).text;
    expect(metrics).toMatch(/^translation_words_total\{engine="libretranslate",source="en",target="de"\} \d+$/m);
    expect(metrics).toMatch(/^translation_words_total\{engine="apertium",source="en",target="es"\} \d+$/m);
  });

  it('lets Apertium take over a pair when LibreTranslate fails it, charging once', async () => {
    const { plainKey } = await createTestKey();
    const routed = await translate(plainKey, { source: 'es', target: 'en', texts: ['Hola'] });
    expect(engineOf(routed)).toBe('libretranslate');

    libre.disrupt({ path: '/translate', status: 500, body: { error: 'model crashed' } });
    const before = libre.requestsTo('/translate').length;
    const res = await translate(plainKey, { source: 'es', target: 'en', texts: ['El perro duerme.'] });
    expect(res.status).toBe(200);
    expect(res.body.translations[0]).toMatch(/dog/i);
    expect(engineOf(res)).toBe('apertium');
    expect(libre.requestsTo('/translate').length - before).toBe(1);
    expect(await usage(plainKey)).toMatchObject({ words: 1 + 3 });
  });

  it('answers 503 for a LibreTranslate pair while it is stopped, charging nothing, and serves it again once it is back', async () => {
    const { plainKey } = await createTestKey();
    await libre.stop();
    try {
      const down = await translate(plainKey, { target: 'de' });
      expect(down.status).toBe(503);
      expect(down.body.error).toBe('service_unavailable');
      expect(await usage(plainKey)).toMatchObject({ words: 0, cost_cents: 0 });

      const spanish = await translate(plainKey, { target: 'es', texts: [SLEEPING] });
      expect(spanish.status).toBe(200);
      expect(engineOf(spanish)).toBe('apertium');

      // The languages LibreTranslate listed stay listed while it is away.
      const languages = await http(url, 'GET', '/api/v1/languages', { token: plainKey });
      expect(languages.status).toBe(200);
      expect(languages.body.target).toHaveLength(EU_LANGUAGES.length);
    } finally {
      libre = await startLibre();
    }

    const back = await translate(plainKey, { target: 'de' });
    expect(back.status).toBe(200);
    expect(back.body.translations).toEqual(['Hallo Welt']);
    expect(engineOf(back)).toBe('libretranslate');
    expect(await usage(plainKey)).toMatchObject({ words: 4 + 2 });
  });
});
