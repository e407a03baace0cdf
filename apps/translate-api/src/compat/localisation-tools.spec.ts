import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, testAppEnv, type TestKey } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

/** Values of an i18next locale file, as the tools below read them: keys in order. */
const LOCALE = {
  save: 'Save',
  close: 'Close',
  cut: 'Cut',
  save_and_close: 'Save and close',
  canvas: 'Canvas & Shape properties',
  greeting: 'Hello {{name}}, you have {{count}} new messages.',
  linked: '@:save and close',
  wrap: 'The first line\nThe second line',
};
const KEYS = Object.keys(LOCALE);
const VALUES = Object.values(LOCALE);

/**
 * Popular tools that fill locale files through DeepL- and LibreTranslate-compatible APIs, as they
 * call them, over Apertium: every key gets its own value back, its placeholders intact.
 */
describe('localisation tools through the compatible APIs', () => {
  let app: NestFastifyApplication;
  let url: string;
  let key: TestKey;

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ RATE_LIMIT_PER_MINUTE: '1000' })));
    url = await app.getUrl();
    key = await createTestKey();
  });
  afterAll(() => app.close());

  /** Each value translated in a request of its own, as plain text. */
  const translatedAlone = async () => {
    const res = await http(url, 'POST', '/api/v1/translate', { json: { texts: VALUES, source: 'en', target: 'es' }, token: key.plainKey });
    expect(res.status).toBe(200);
    return Object.fromEntries(KEYS.map((name, index) => [name, res.body.translations[index] as string]));
  };
  const deepl = (body: Record<string, unknown>) => http(url, 'POST', '/v2/translate', { json: body, headers: { authorization: `DeepL-Auth-Key ${key.plainKey}` } });

  it.each(['html', 'xml'])("json-autotranslate's call (interpolations as <span translate=\"no\">, tag_handling %s) gives every key its own value", async (tagHandling) => {
    // What its i18next matcher sends: each interpolation replaced by a numbered span DeepL must leave alone.
    const spans = VALUES.map((value) => {
      const replacements: string[] = [];
      const clean = value.replace(/\{\{[^}]+\}\}/g, (interpolation) => `<span translate="no">${replacements.push(interpolation) - 1}</span>`);
      return { clean, replacements };
    });
    const res = await deepl({ text: spans.map(({ clean }) => clean), source_lang: 'EN', target_lang: 'ES', tag_handling: tagHandling });
    expect(res.status).toBe(200);
    const translations: string[] = res.body.translations.map((translation: { text: string }, index: number) =>
      spans[index].replacements.reduce((text, interpolation, n) => text.replace(`<span translate="no">${n}</span>`, interpolation), translation.text),
    );
    expect(translations).toHaveLength(KEYS.length);
    const alone = await translatedAlone();
    expect(Object.fromEntries(KEYS.map((name, index) => [name, translations[index]]))).toEqual({
      ...alone,
      // A bare `&` comes back bare: the tool writes the text as it receives it.
      canvas: expect.stringMatching(/^[^&]* & [^&]*$/),
      greeting: expect.stringMatching(/^\S.*\{\{name\}\}, .*\{\{count\}\}.*\.$/),
      linked: expect.stringMatching(/^@:save \S+ \S+$/),
      wrap: expect.stringMatching(/^[^\n]+\n[^\n]+$/),
    });
  });

  it("i18n-auto-translation's call (values joined by \\n#__#\\n in one text) gives every key its own value", async () => {
    const joined = VALUES.join('\n#__#\n');
    for (const res of [
      await deepl({ text: [joined], source_lang: 'EN', target_lang: 'ES' }),
      await http(url, 'POST', '/translate', { json: { q: joined, source: 'en', target: 'es', format: 'text', api_key: key.plainKey } }),
    ]) {
      expect(res.status).toBe(200);
      const text: string = res.body.translations?.[0].text ?? res.body.translatedText;
      const values = text.split('\n#__#\n');
      expect(values).toHaveLength(VALUES.length);
      // The two-line value keeps its own two lines; no word moved across a separator.
      expect(values[KEYS.indexOf('wrap')].split('\n')).toHaveLength(2);
      expect(Object.fromEntries(KEYS.map((name, index) => [name, values[index]]))).toEqual(await translatedAlone());
    }
  });
});
