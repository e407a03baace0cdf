import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, testAppEnv } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

const WORDS = 'The cat was sleeping the whole afternoon upon the old red sofa near the window while the small dog waited patiently beside the door for the children returning home'.split(' ');
/** One word per 25 letters: the floor for text glued without any separator. */
const GLUED_WORDS = Math.ceil(WORDS.join('').length / 25);

describe('words charged by POST /api/v1/translate with Apertium', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ RATE_LIMIT_PER_MINUTE: '1000' })));
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  /** Translates with a fresh key and returns the response body and the words its usage shows. */
  const translate = async (texts: string[], format = 'text') => {
    const key = await createTestKey();
    const res = await http(url, 'POST', '/api/v1/translate', { json: { source: 'en', target: 'es', format, texts }, token: key.plainKey });
    expect(res.status).toBe(200);
    const usage = await http(url, 'GET', '/api/v1/usage', { token: key.plainKey });
    return { ...res.body, charged: usage.body.words };
  };

  // Apertium translates across all of these but the middle dot; counting never depends on the engine.
  it.each([
    ['\u203F', 'connector punctuation', true],
    ['\uFF3F', 'connector punctuation', true],
    ['\u00B7', 'MidLetter', false],
    ['\uFF1A', 'MidLetter', true],
    ['\u2019', 'MidNumLet', true],
    ['\uFF0E', 'MidNumLet', true],
    ["'", 'Single_Quote', true],
  ])('charges every word joined by "%s" (%s)', async (joiner, _, translated) => {
    const body = await translate([WORDS.join(joiner)]);
    expect(body.words).toBe(WORDS.length);
    expect(body.charged).toBe(WORDS.length);
    if (translated) expect(body.translations[0]).toMatch(/gato|dormía|durmiendo/i);
  });

  // Words joined by these are an identifier, a domain or a file name: kept as written, one word as UAX #29 counts it.
  it.each(['_', ':', '.'])('keeps words joined by "%s" as written, untranslated, and charges one word', async (joiner) => {
    const text = WORDS.join(joiner);
    const body = await translate([text, `Open ${text} now`]);
    expect(body.translations).toEqual([text, `Abierto ${text} ahora`]);
    expect(body.words).toBe(1 + 3);
    expect(body.charged).toBe(4);
  });

  it.each(['\u2060', '\u200D', '\u200B', '\u00AD', '\u200E', '\u2066', '\uFEFF', '\u034F', '\uFE0F'])(
    'removes %j between words before the engine, which then translates nothing, and charges the floor',
    async (joiner) => {
      const text = WORDS.join(joiner);
      const body = await translate([text]);
      expect(body.words).toBe(GLUED_WORDS);
      expect(body.charged).toBe(GLUED_WORDS);
      expect(body.translations[0]).not.toMatch(/gato/);
    },
  );

  it('counts words split by inline HTML tags as the engine translates them', async () => {
    const body = await translate([`<p>${WORDS.join('<b></b>')}</p>`], 'html');
    expect(body.words).toBe(WORDS.length);
    expect(body.translations[0]).toMatch(/gato/);
  });

  it('charges normal prose as before', async () => {
    const body = await translate(["The cat isn't sleeping on the red sofa, e.g. in the U.S.A. today.", 'It costs 3.14 euros, or 1,000 at most.']);
    expect(body.words).toBe(13 + 8);
    expect(body.charged).toBe(21);
  });

  it('gives angle brackets, ampersands and placeholder look-alikes of plain text back untouched, free of charge', async () => {
    const texts = ['The cat <script>alert(1)</script> & <b>dog</b>', '<x id="0"/><g id="2">The cat</g>', 'The cat &amp; the dog &lt;3 [sleep] ^on$ @sofa {x} \\ ok'];
    const body = await translate(texts);
    const markup = (text: string) => text.match(/<[^>]*>|&\w*;?|[[\]^$@{}\\]/g);
    body.translations.forEach((translation: string, i: number) => expect(markup(translation)).toEqual(markup(texts[i])));
    expect(body.translations[1]).toBe('<x id="0"/><g id="2">El gato</g>');
    expect(body.translations[0]).toMatch(/perro/);
    // The script's content is protected as in HTML: "The cat ... dog".
    expect(body.words).toBe(3 + 2 + 9);
  });
});
