import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, startDeeplStandIn, testAppEnv, type StandIn } from '@platform/testing';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

describe("a style profile's formality with TRANSLATION_ENGINES=deepl,apertium", () => {
  const authKey = `${randomBytes(12).toString('hex')}:fx`;
  let deepl: StandIn;
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    deepl = await startDeeplStandIn({ authKey });
    app = await serveTranslateApi(
      loadConfig(
        TranslateApiConfig,
        testAppEnv({
          RATE_LIMIT_PER_MINUTE: '1000',
          TRANSLATION_ENGINES: 'deepl,apertium',
          DEEPL_API_KEY: authKey,
          DEEPL_SERVER_URL: deepl.url,
          // DeepL does en->es too; this pair goes to Apertium.
          TRANSLATION_ROUTES: 'en-es:apertium',
        }),
      ),
    );
    url = await app.getUrl();
  });
  afterAll(async () => {
    await app?.close();
    await deepl?.stop();
  });

  async function profile(formality: string) {
    const { plainKey } = await createTestKey();
    const { id } = (await http(url, 'POST', '/api/v1/style-profiles', { token: plainKey, json: { name: formality, formality } })).body;
    return (target: string, texts: string[]) => http(url, 'POST', '/api/v1/translate', { token: plainKey, json: { source: 'en', target, texts, style_profile: id } });
  }
  const formalities = () => deepl.requestsTo('/v2/translate').map((call) => call.params.get('formality'));

  it('passes formality less to DeepL and says it applied it', async () => {
    const translate = await profile('less');
    const before = formalities().length;
    const res = await translate('de', ['The cat is sleeping']);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-translation-engine')).toBe('deepl');
    expect(res.body.translations).toEqual(['Die Katze schläft']);
    expect(formalities().slice(before)).toEqual(['less']);
    expect(res.body.formality).toEqual({ requested: 'less', applied: true, applied_by: ['deepl'], ignored_by: [] });
  });

  it('says Apertium ignored it, in the response, not silently', async () => {
    const translate = await profile('more');
    const res = await translate('es', ['The cat is sleeping.']);
    expect(res.headers.get('x-translation-engine')).toBe('apertium');
    expect(res.body.formality).toEqual({ requested: 'more', applied: false, applied_by: [], ignored_by: ['apertium'] });
  });

  it("passes the DeepL-compatible route's own formality to DeepL, without a profile", async () => {
    const { plainKey } = await createTestKey();
    const before = formalities().length;
    const res = await http(url, 'POST', '/v2/translate', { token: plainKey, json: { text: ['Good morning'], source_lang: 'EN', target_lang: 'DE', formality: 'prefer_less' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ translations: [{ text: 'Guten Morgen' }], formality: { requested: 'less', applied: true, applied_by: ['deepl'], ignored_by: [] } });
    expect(formalities().slice(before)).toEqual(['less']);
  });

  it("lists formality on DeepL's language route for the targets DeepL applies it to", async () => {
    const { plainKey } = await createTestKey();
    const res = await http(url, 'GET', '/v2/languages?type=target', { token: plainKey });
    expect(res.status).toBe(200);
    const formal = (code: string) => res.body.find((language: { language: string }) => language.language === code)?.supports_formality;
    expect([formal('DE'), formal('FR'), formal('PT-PT')]).toEqual([true, true, true]);
    // DeepL offers Danish and Greek without formality.
    expect([formal('DA'), formal('EL')]).toEqual([false, false]);
  });

  it('sends DeepL no formality for a profile without one', async () => {
    const translate = await profile('default');
    const before = formalities().length;
    const res = await translate('de', ['Good morning']);
    expect(res.body.formality).toBeUndefined();
    expect(formalities().slice(before)).toEqual([null]);
  });
});
