import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, testAppEnv } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

/** Template syntax of every engine the service keeps: each must come back byte for byte and cost nothing. */
const TEMPLATE_SYNTAX = [
  '{% extends "main.html" %}',
  '{%- if user.admin -%}',
  '{{ user.name|title }}',
  '{# a note for translators #}',
  '{{#if admin}}',
  '{{else}}',
  '{{/if}}',
  '{{{raw_html}}}',
  '{{> "icons/fire"}}',
  '{{!-- holds }} and more --}}',
  '{{! a short note }}',
  '{{~name~}}',
  '{{^items}}',
  "<% if (typeof PROD != 'undefined' && PROD == true) { %>",
  '<%= user.name %>',
  '<%- body -%>',
  '<%# a note %>',
  '@:common.save',
  '@.lower:message.name',
  '@:(common.key)',
  "@:{'quoted key'}",
  '$t(key)',
  '$t(items, { "count": {{count}} })',
  '%{name}',
  '%<amount>.2f',
];
const SENTENCE = (syntax: string) => `The cat ${syntax} sleeps on the red sofa.`;
/** The words of SENTENCE without the template syntax. */
const SENTENCE_WORDS = 7;

describe('template syntax, code-like elements and entities through /api/v1/translate and /v2/translate with Apertium', () => {
  let app: NestFastifyApplication;
  let url: string;

  /** Translates with a fresh key; gives the body and the words its usage shows charged. */
  const translate = async (format: 'text' | 'json' | 'html', texts: string[]) => {
    const key = await createTestKey();
    const res = await http(url, 'POST', '/api/v1/translate', { json: { source: 'en', target: 'es', format, texts }, token: key.plainKey });
    expect(res.status, res.text).toBe(200);
    const usage = await http(url, 'GET', '/api/v1/usage', { token: key.plainKey });
    return { translations: res.body.translations as string[], words: res.body.words as number, charged: usage.body.words as number };
  };
  const deepl = async (text: string[], tagHandling?: 'xml' | 'html') => {
    const key = await createTestKey();
    const res = await http(url, 'POST', '/v2/translate', { json: { text, source_lang: 'EN', target_lang: 'ES', tag_handling: tagHandling }, token: key.plainKey });
    expect(res.status, res.text).toBe(200);
    return res.body.translations as { text: string; billed_characters: number }[];
  };

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ RATE_LIMIT_PER_MINUTE: '1000' })));
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  describe('every template syntax is kept byte for byte, untranslated and free of charge', () => {
    const expectKept = (translations: string[], words: number, charged: number) => {
      translations.forEach((translation, index) => {
        expect(translation, translation).toContain(TEMPLATE_SYNTAX[index]);
        expect(translation, translation).toMatch(/gato/);
      });
      expect(words).toBe(TEMPLATE_SYNTAX.length * SENTENCE_WORDS);
      expect(charged).toBe(words);
    };

    it('in plain text', async () => {
      const { translations, words, charged } = await translate('text', TEMPLATE_SYNTAX.map(SENTENCE));
      expectKept(translations, words, charged);
    });

    it('in JSON string values', async () => {
      const { translations, words, charged } = await translate('json', TEMPLATE_SYNTAX.map((syntax) => JSON.stringify({ message: SENTENCE(syntax) })));
      expectKept(
        translations.map((translation) => JSON.parse(translation).message),
        words,
        charged,
      );
    });

    it('in HTML text', async () => {
      const { translations, words, charged } = await translate('html', TEMPLATE_SYNTAX.map((syntax) => `<p>${SENTENCE(syntax)}</p>`));
      expectKept(translations, words, charged);
    });

    it('in HTML translatable attribute values', async () => {
      const { translations, words, charged } = await translate('html', TEMPLATE_SYNTAX.map((syntax) => `<img src="a.png" alt="${SENTENCE(syntax)}">`));
      expectKept(translations, words, charged);
    });

    it('never decodes or re-encodes the bytes of template syntax in HTML', async () => {
      const ejs = "<% if (a && b < c) { %>";
      const { translations } = await translate('html', [`<p>The cat ${ejs} sleeps.</p>`, `<p title="The cat ${ejs} sleeps">The dog {{ "<b>" }} sleeps.</p>`]);
      expect(translations[0]).toContain(ejs);
      expect(translations[1]).toMatch(/^<p title="[^"]*gato[^"]*">/);
      expect(translations[1]).toContain(` ${ejs} `);
      expect(translations[1]).toContain('{{ "<b>" }}');
      expect(translations[1]).not.toContain('<b>perro');
    });
  });

  describe('the reported cases', () => {
    it('keeps <tt>, <kbd>, <samp>, <var> and <code> verbatim in HTML and bills none of their words', async () => {
      const texts = ['<p>Use <tt>_.template</tt> to render the page.</p>', '<p>Press <kbd>Ctrl</kbd>, read <samp>File not found</samp>, set <var>width</var> and run <code>make all</code>.</p>'];
      const { translations, words } = await translate('html', texts);
      expect(translations[0]).toBe('<p>Uso <tt>_.template</tt> a render la página.</p>');
      expect(translations[1]).toContain('<kbd>Ctrl</kbd>');
      expect(translations[1]).toContain('<samp>File not found</samp>');
      expect(translations[1]).toContain('<var>width</var>');
      expect(translations[1]).toContain('<code>make all</code>');
      expect(words).toBe(5 + 5);
    });

    it('keeps code-like look-alike elements verbatim in plain text and JSON strings', async () => {
      const message = 'Run <code>make all</code> and press <kbd>Enter</kbd> in the <span translate="no">Build Tools</span> window.';
      const json = await translate('json', [JSON.stringify({ message })]);
      const text = await translate('text', [message]);
      for (const translation of [JSON.parse(json.translations[0]).message, text.translations[0]]) {
        expect(translation).toContain('<code>make all</code>');
        expect(translation).toContain('<kbd>Enter</kbd>');
        expect(translation).toContain('<span translate="no">Build Tools</span>');
        expect(translation).toMatch(/ventana/);
      }
      expect([json.words, text.words]).toEqual([6, 6]);
    });

    it('neither translates nor bills Jinja tags, in HTML and in plain text', async () => {
      const source = '{% extends "main.html" %} {% block tabs %}';
      const html = await translate('html', [source, `${source}<p>The house</p>{% endblock %}`]);
      const text = await translate('text', [source]);
      expect(html.translations).toEqual([source, `${source}<p>La casa</p>{% endblock %}`]);
      expect(text.translations).toEqual([source]);
      expect([html.words, text.words]).toEqual([2, 0]);
    });

    it('keeps an EJS condition with "&&" and "!=" as written, in HTML', async () => {
      const html = "<% if (typeof PROD != 'undefined' && PROD == true) { %><script src=\"/app.js\"></script><% } %><p>The red car</p>";
      const { translations, words } = await translate('html', [html]);
      expect(translations).toEqual(["<% if (typeof PROD != 'undefined' && PROD == true) { %><script src=\"/app.js\"></script><% } %><p>El coche rojo</p>"]);
      expect(words).toBe(3);
    });

    it('keeps vue-i18n linked messages in plain text and JSON', async () => {
      const json = await translate('json', [JSON.stringify({ saveAndClose: '@:common.save and close', title: '@.capitalize:common.title of the page' })]);
      expect(JSON.parse(json.translations[0])).toEqual({ saveAndClose: expect.stringMatching(/^@:common\.save \S+ \S+$/), title: expect.stringMatching(/^@\.capitalize:common\.title .*página$/) });
      expect(json.words).toBe(2 + 3);
    });

    it('gives a bare "&" back bare and "&amp;" as "&amp;" with DeepL tag_handling xml and html, and in HTML and plain text', async () => {
      const texts = ['Canvas & Shape properties', 'Fish &amp; chips'];
      for (const tagHandling of ['xml', 'html'] as const) {
        const translations = await deepl(texts, tagHandling);
        expect(translations[0].text).toMatch(/^[^&]*& [^&]*$/);
        expect(translations[1].text).toMatch(/^[^&]*&amp; [^&]*$/);
      }
      const html = await translate('html', texts);
      expect(html.translations[0]).toMatch(/^[^&]*& [^&]*$/);
      expect(html.translations[1]).toMatch(/^[^&]*&amp; [^&]*$/);
      const text = await translate('text', ['Canvas & Shape properties']);
      expect(text.translations[0]).toMatch(/^[^&]*& [^&]*$/);
    });

    it('keeps template syntax through /v2/translate with tag_handling xml, and bills it nothing', async () => {
      const [withTags] = await deepl(["<p>The cat <% if (a && b) { %>sleeps<% } %>.</p>"], 'xml');
      const [without] = await deepl(['<p>The cat sleeps.</p>'], 'xml');
      expect(withTags.text).toContain('<% if (a && b) { %>');
      expect(withTags.text).toContain('<% } %>');
      expect(withTags.billed_characters).toBe(without.billed_characters);
    });

    it('keeps a bare ">" bare and "&gt;" as "&gt;" in HTML', async () => {
      const { translations } = await translate('html', ['<p>The cat > the dog</p>', '<p>The cat &gt; the dog</p>']);
      expect(translations).toEqual(['<p>El gato > el perro</p>', '<p>El gato &gt; el perro</p>']);
    });
  });
});
