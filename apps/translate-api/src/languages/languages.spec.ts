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

interface Listed {
  source: { code: string; name: string; targets: string[] }[];
  target: { code: string; name: string }[];
}

/**
 * Asks POST /api/v1/translate for every pair of a listed source and a listed target: a target
 * the source lists must translate, any other must be refused with 422. Gives the pairs that
 * answered otherwise.
 */
async function pairsNotAsListed(url: string, listed: Listed): Promise<string[]> {
  // One key for some hundred requests: past the default rate limit of 60 a minute.
  const { plainKey: token } = await createTestKey({ rateLimitPerMinute: 1000 });
  const problems: string[] = [];
  for (const { code: source, targets } of listed.source) {
    for (const { code: target } of listed.target.filter(({ code }) => code !== source)) {
      const res = await http(url, 'POST', '/api/v1/translate', { token, json: { source, target, texts: [nativeLanguageName(source)] } });
      const answered = targets.includes(target)
        ? res.status === 200 && res.body.translations.length === 1
        : res.status === 422 && res.body.error === 'unsupported_language';
      if (!answered) problems.push(`${source} → ${target} (${targets.includes(target) ? 'listed' : 'not listed'}): ${res.status} ${res.text}`);
    }
  }
  return problems;
}

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

    it('lists exactly the EU languages the installed pairs translate from and into, sorted, with native names and the targets of each source', async () => {
      const pairs = (await app.get(EngineRouter).pairs()).filter((p) => p.source !== p.target && isEuLanguage(p.source) && isEuLanguage(p.target));
      const codes = (list: string[]) => [...new Set(list)].sort();
      const named = (code: string) => ({ code, name: nativeLanguageName(code) });

      const res = await http(url, 'GET', '/api/v1/languages', { token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ok: true,
        source: codes(pairs.map((p) => p.source)).map((code) => ({ ...named(code), targets: codes(pairs.filter((p) => p.source === code).map((p) => p.target)) })),
        target: codes(pairs.map((p) => p.target)).map(named),
      });
      const targetsOf = (code: string) => (res.body as Listed).source.find((language) => language.code === code)?.targets;
      // English reaches the Romance languages only; Danish, Croatian, Slovenian and Swedish are targets of other sources.
      expect(targetsOf('en')).toEqual(['es', 'fr', 'it', 'pt']);
      expect(targetsOf('sv')).toEqual(['da']);
      expect(res.headers.get('ratelimit-policy')).toBe('"default";q=60;w=60');
    });

    it('promises only pairs that translate: every listed target of every source answers 200, every other listed target 422', async () => {
      const listed = (await http(url, 'GET', '/api/v1/languages', { token })).body as Listed;
      expect(await pairsNotAsListed(url, listed)).toEqual([]);
    }, 120_000);

    it('lists the same pairs on the LibreTranslate- and DeepL-compatible routes', async () => {
      const listed = (await http(url, 'GET', '/api/v1/languages', { token })).body as Listed;
      const libre = await http(url, 'GET', '/languages');
      expect(libre.body.map(({ code, targets }: { code: string; targets: string[] }) => ({ code, targets }))).toEqual(listed.source.map(({ code, targets }) => ({ code, targets })));
      // DeepL lists sources and targets apart, targets by their EU variant (EN-GB, PT-PT).
      const deepl = async (type: string) => {
        const res = await http(url, 'GET', `/v2/languages?type=${type}`, { headers: { authorization: `DeepL-Auth-Key ${token}` } });
        return res.body.map(({ language }: { language: string }) => language.slice(0, 2).toLowerCase());
      };
      expect(await deepl('source')).toEqual(listed.source.map(({ code }) => code));
      expect(await deepl('target')).toEqual(listed.target.map(({ code }) => code));
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

    it("lists the server's EU languages only, named in themselves, each source with the targets it has models for", async () => {
      const res = await http(url, 'GET', '/api/v1/languages', { token });
      // The stand-in also offers Japanese and Chinese, which are no EU languages, and has models
      // en → de, es, fr, it, ja, zh; de → en, fr; fr → de, en; es, it, ja, zh → en.
      expect(res.body).toEqual({
        ok: true,
        source: [
          { code: 'de', name: 'Deutsch', targets: ['en', 'fr'] },
          { code: 'en', name: 'English', targets: ['de', 'es', 'fr', 'it'] },
          { code: 'es', name: 'Español', targets: ['en'] },
          { code: 'fr', name: 'Français', targets: ['de', 'en'] },
          { code: 'it', name: 'Italiano', targets: ['en'] },
        ],
        target: [
          { code: 'de', name: 'Deutsch' },
          { code: 'en', name: 'English' },
          { code: 'es', name: 'Español' },
          { code: 'fr', name: 'Français' },
          { code: 'it', name: 'Italiano' },
        ],
      });
      expect(await pairsNotAsListed(url, res.body)).toEqual([]);
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
