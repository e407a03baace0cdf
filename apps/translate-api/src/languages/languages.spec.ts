import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { EU_LANGUAGES, isEuLanguage } from '@platform/contracts';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, startLibreTranslateStandIn, testAppEnv, type StandIn } from '@platform/testing';
import { EngineRouter } from '@platform/translation-engines';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';
import { nativeLanguageName } from './native-language-name';

const start = (env: Record<string, string> = {}) => serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv(env)));

describe('nativeLanguageName', () => {
  it('names each official EU language in itself, capitalised by its own rules', () => {
    expect(Object.fromEntries(EU_LANGUAGES.map((code) => [code, nativeLanguageName(code)]))).toEqual({
      bg: 'Български', cs: 'Čeština', da: 'Dansk', de: 'Deutsch', el: 'Ελληνικά', en: 'English', es: 'Español', et: 'Eesti',
      fi: 'Suomi', fr: 'Français', ga: 'Gaeilge', hr: 'Hrvatski', hu: 'Magyar', it: 'Italiano', lt: 'Lietuvių', lv: 'Latviešu',
      mt: 'Malti', nl: 'Nederlands', pl: 'Polski', pt: 'Português', ro: 'Română', sk: 'Slovenčina', sl: 'Slovenščina', sv: 'Svenska',
    });
  });
});

describe('GET /api/v1/languages', () => {
  let token: string;

  beforeAll(async () => {
    token = (await createTestKey()).plainKey;
  });

  describe('with the default engine (Apertium)', () => {
    let app: NestFastifyApplication;
    let url: string;

    beforeAll(async () => {
      app = await start();
      url = await app.getUrl();
    });
    afterAll(() => app.close());

    it('lists exactly the EU languages the installed pairs translate from and into, sorted, with native names', async () => {
      const pairs = (await app.get(EngineRouter).pairs()).filter((p) => isEuLanguage(p.source) && isEuLanguage(p.target));
      const expected = (codes: string[]) => [...new Set(codes)].sort().map((code) => ({ code, name: nativeLanguageName(code) }));

      const res = await http(url, 'GET', '/api/v1/languages', { token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, source: expected(pairs.map((p) => p.source)), target: expected(pairs.map((p) => p.target)) });
      expect(res.body.source.length).toBeGreaterThan(0);
      expect(res.headers.get('ratelimit-policy')).toBe('"default";q=60;w=60');
    });

    it('needs a key and is described in the OpenAPI document', async () => {
      expect((await http(url, 'GET', '/api/v1/languages')).status).toBe(401);
      const { body } = await http(url, 'GET', '/openapi.json');
      expect(body.paths['/api/v1/languages'].get.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/LanguagesResponseDto');
    });
  });

  describe('with LibreTranslate', () => {
    let standIn: StandIn;
    let app: NestFastifyApplication;
    let url: string;

    beforeAll(async () => {
      standIn = await startLibreTranslateStandIn();
      app = await start({ TRANSLATION_ENGINE: 'libretranslate', LIBRETRANSLATE_URL: standIn.url });
      url = await app.getUrl();
    });
    afterAll(async () => {
      await app.close();
      await standIn.stop();
    });

    it("lists the server's EU languages only, named in themselves", async () => {
      const res = await http(url, 'GET', '/api/v1/languages', { token });
      const languages = [
        { code: 'de', name: 'Deutsch' },
        { code: 'en', name: 'English' },
        { code: 'es', name: 'Español' },
        { code: 'fr', name: 'Français' },
        { code: 'it', name: 'Italiano' },
      ];
      // The stand-in also offers Japanese and Chinese, which are no EU languages.
      expect(res.body).toEqual({ ok: true, source: languages, target: languages });
    });

    it('answers 503 while the engine cannot list its languages, without its internals', async () => {
      const fresh = await start({ TRANSLATION_ENGINE: 'libretranslate', LIBRETRANSLATE_URL: standIn.url });
      try {
        standIn.disrupt({ path: '/languages', status: 502, body: `<html>bad gateway at ${standIn.url}</html>` });
        const res = await http(await fresh.getUrl(), 'GET', '/api/v1/languages', { token });
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ error: 'service_unavailable', message: 'The translation engine is unavailable; try again shortly' });
        // A failed lookup is not remembered: the next request asks the engine again.
        expect((await http(await fresh.getUrl(), 'GET', '/api/v1/languages', { token })).status).toBe(200);
      } finally {
        await fresh.close();
      }
    });
  });
});
