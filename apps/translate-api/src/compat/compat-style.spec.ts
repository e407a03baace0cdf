import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, testAppEnv } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

const NNBSP = '\u202F';

describe('style profiles and DeepL ignore_tags on the compatible APIs, over Apertium', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ RATE_LIMIT_PER_MINUTE: '1000' })));
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  async function keyWithProfile() {
    const { plainKey } = await createTestKey();
    const { id } = (await http(url, 'POST', '/api/v1/style-profiles', { token: plainKey, json: { name: 'Brand', do_not_translate: ['Notion'], formality: 'less' } })).body;
    return { plainKey, id };
  }
  const deepl = (plainKey: string, form: Record<string, string | string[]>) => {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(form)) for (const item of [value].flat()) body.append(name, item);
    return http(url, 'POST', '/v2/translate', { body: body.toString(), headers: { authorization: `DeepL-Auth-Key ${plainKey}`, 'content-type': 'application/x-www-form-urlencoded' } });
  };

  it('LibreTranslate takes the profile as an extra field and says it applied it, with what became of its formality', async () => {
    const { plainKey, id } = await keyWithProfile();
    const res = await http(url, 'POST', '/translate', { json: { q: 'Warning: open Notion!', source: 'en', target: 'fr', api_key: plainKey, style_profile: id } });
    expect(res.status).toBe(200);
    expect(res.body.translatedText).toMatch(new RegExp(`^\\p{L}+${NNBSP}: .*Notion${NNBSP}!$`, 'u'));
    expect(res.body).toMatchObject({ style_profile: id, formality: { requested: 'less', applied: false, ignored_by: ['apertium'] } });

    const foreign = await http(url, 'POST', '/translate', { json: { q: 'Hello', source: 'en', target: 'fr', api_key: (await createTestKey()).plainKey, style_profile: id } });
    expect(foreign.status).toBe(404);
  });

  it('DeepL takes the profile too, and its own formality over the profile\'s', async () => {
    const { plainKey, id } = await keyWithProfile();
    const res = await deepl(plainKey, { text: 'Open Notion', target_lang: 'ES', source_lang: 'EN', style_profile: id, formality: 'prefer_more' });
    expect(res.status).toBe(200);
    expect(res.body.translations[0].text).toMatch(/Notion$/);
    // Open: one word; Notion is free.
    expect(res.body.translations[0].billed_characters).toBe(6);
    expect(res.body).toMatchObject({ style_profile: id, formality: { requested: 'more', applied: false, ignored_by: ['apertium'] } });
  });

  it('DeepL keeps what ignore_tags names as sent with tag handling, comma-separated or repeated', async () => {
    const { plainKey } = await createTestKey();
    const text = '<p>Read <keep>the red book</keep> today and <x-name>the cat</x-name> sleeps.</p>';
    for (const ignore of ['keep,x-name', ['keep', 'x-name']]) {
      const res = await deepl(plainKey, { text, target_lang: 'ES', source_lang: 'EN', tag_handling: 'html', ignore_tags: ignore });
      expect(res.status).toBe(200);
      const [translation] = res.body.translations;
      expect(translation.text).toContain('<keep>the red book</keep>');
      expect(translation.text).toContain('<x-name>the cat</x-name>');
      expect(translation.text).toMatch(/^<p>Leído <keep>/);
    }
    const plain = await deepl(plainKey, { text, target_lang: 'ES', source_lang: 'EN', tag_handling: 'html' });
    expect(plain.body.translations[0].text).not.toContain('the red book');
  });
});
