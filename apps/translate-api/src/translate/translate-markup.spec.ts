import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, testAppEnv, type TestKey } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

/** What people paste as plain text: real tags, comparisons, arrows, hearts and addresses. */
const TEXTS = [
  'The alert <script>cat(1)</script>',
  'This is <b>bold</b> text.',
  'The red <b>sofa</b> is here.',
  'If a < b and c > d then stop.',
  'First line<br/>second line',
  'The cat is sleeping.</div>',
  'We know that x<y is true.',
  'I <3 cats',
  'Write to Ana <ana@example.eu> today.',
];
/** The same texts with every tag, and the content of the protected `<script>`, replaced by a space: what is billed. */
const WITHOUT_TAGS = TEXTS.map((text) => text.replace(/<script>.*?<\/script>|<\/?[A-Za-z][^<>]*>/g, ' '));
/** Everything of a text that is markup-like: tags, and the characters `<` and `>` wherever they are. */
const markupOf = (text: string) => text.match(/<\/?[A-Za-z][^<>]*>|[<>]/g);

describe('markup-looking text in format text, through /api/v1/translate, /v2/translate and /translate with Apertium', () => {
  let app: NestFastifyApplication;
  let url: string;
  let key: TestKey;

  const translate = async (texts: string[]) => {
    const res = await http(url, 'POST', '/api/v1/translate', { json: { source: 'en', target: 'es', format: 'text', texts }, token: key.plainKey });
    expect(res.status, res.text).toBe(200);
    return res.body as { translations: string[]; words: number };
  };

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ RATE_LIMIT_PER_MINUTE: '1000' })));
    url = await app.getUrl();
    key = await createTestKey();
  });
  afterAll(() => app.close());

  it('keeps every tag, "<" and ">" byte for byte and in place, translates the words around them and bills no tag', async () => {
    const { translations, words } = await translate(TEXTS);
    translations.forEach((translation, index) => expect(markupOf(translation), translation).toEqual(markupOf(TEXTS[index])));
    expect(translations).toEqual([
      'La alerta <script>cat(1)</script>',
      'Esto es texto <b>intrépido</b> .',
      'El <b>sofá</b> rojo es aquí.',
      'Si un < b y c > d entonces parón.',
      'Primera línea<br/>segunda línea',
      'El gato está durmiendo.</div>',
      'Sabemos que x<y es cierto.',
      'I <3 gatos',
      'Escribe a Ana <ana@example.eu> hoy.',
    ]);
    expect(words).toBe((await translate(WITHOUT_TAGS)).words);
  });

  it('keeps the words of an element inside it, where the engine alone would move others in', async () => {
    const { translations } = await translate(['The big <i>dog</i> sleeps <b>on the red sofa</b> now.', '<u>Read</u> the <em>new</em> book.']);
    expect(translations[0]).toMatch(/<i>perro<\/i>.*<b>en el sofá rojo<\/b>/);
    expect(translations[1]).toBe('<u>Leído</u> el libro <em>nuevo</em>.');
  });

  it('gives the same through the DeepL- and LibreTranslate-compatible endpoints, whose text is plain text too', async () => {
    const { translations } = await translate(TEXTS);
    const deepl = await http(url, 'POST', '/v2/translate', { json: { source_lang: 'EN', target_lang: 'ES', text: TEXTS }, token: key.plainKey });
    const libre = await http(url, 'POST', '/translate', { json: { source: 'en', target: 'es', format: 'text', q: TEXTS }, token: key.plainKey });
    expect([deepl.status, libre.status]).toEqual([200, 200]);
    expect(deepl.body.translations.map((t: { text: string }) => t.text)).toEqual(translations);
    expect(libre.body.translatedText).toEqual(translations);
  });
});
