import { Global, Module } from '@nestjs/common';
import { parse, TYPE, type PluralElement, type SelectElement } from '@formatjs/icu-messageformat-parser';
import { Test } from '@nestjs/testing';
import { EU_LANGUAGES } from '@platform/contracts';
import { loadConfig, MetricsRegistry } from '@platform/service-kit';
import { rejection } from '@platform/testing';
import { EngineError, EngineRouter, UnsupportedPairError, type EngineRequest, type LanguagePair, type TranslationEngine } from '@platform/translation-engines';
import { describe, expect, it } from 'vitest';
import { LanguageDetector } from './detection/language-detector';
import { MAX_SEGMENT_CHARS } from './formats/plain-text.format';
import type { GlossaryTerms } from './glossary/glossary-terms';
import { PricingConfig } from './pricing/pricing.config';
import { TranslationPipeline } from './translation-pipeline';
import { TranslationPipelineModule } from './translation-pipeline.module';
import type { TranslationRequest } from './translation-request';

/**
 * Test-only engine: upper-cases the text between placeholder tags and entities, so every test can
 * say exactly what the output must be. `tamper` lets a test simulate a misbehaving engine.
 */
class UpperCaseEngine implements TranslationEngine {
  readonly name = 'upper-case';
  readonly requests: EngineRequest[] = [];

  constructor(private readonly tamper?: (segments: string[], call: number) => string[]) {}

  /** Every EU language into Spanish, so detection has the whole EU to choose from. */
  async pairs(): Promise<LanguagePair[]> {
    return EU_LANGUAGES.filter((source) => source !== 'es').map((source) => ({ source, target: 'es' }));
  }

  async translate(request: EngineRequest): Promise<string[]> {
    this.requests.push(request);
    const translated = request.segments.map((segment) => segment.replace(/(<[^>]+>|&[#\w]+;)|[^<&]+/g, (match, markup) => markup ?? match.toUpperCase()));
    return this.tamper ? this.tamper(translated, this.requests.length) : translated;
  }

  get segments(): string[] {
    return this.requests.flatMap((request) => request.segments);
  }
}

const pricing = loadConfig(PricingConfig, {});
const detector = new LanguageDetector();

function pipelineWith(engine: TranslationEngine): TranslationPipeline {
  return new TranslationPipeline(new EngineRouter([engine]), pricing, detector);
}

async function translate(request: Partial<TranslationRequest> & { texts: string[] }, engine = new UpperCaseEngine()) {
  const pipeline = pipelineWith(engine);
  const prepared = await pipeline.prepare({ source: 'en', target: 'es', format: 'text', tier: 'basic', ...request });
  const { translations } = await pipeline.run(prepared);
  return { prepared, translations, engine };
}


const sofaGlossary: GlossaryTerms = { source: 'en', target: 'es', entries: [{ term: 'sofa', translation: 'diván' }] };

describe('TranslationPipeline', () => {
  describe('format html', () => {
    it('keeps every tag and the script byte for byte, with inline markup around the words and text attributes translated', async () => {
      const html = '<p>Hello <b>world</b>, <a href="/x" title="Home">click here</a>.</p><script>var a="hello";</script>';
      const { translations, engine, prepared } = await translate({ texts: [html], format: 'html' });
      expect(translations).toEqual(['<p>HELLO <b>WORLD</b>, <a href="/x" title="HOME">CLICK HERE</a>.</p><script>var a="hello";</script>']);
      // The sentence, then without its inline tags and each stretch between them alone: second opinions for the sentence's output.
      expect(engine.segments).toEqual(['Home', 'Hello <g id="1">world</g>, <g id="2">click here</g>.', 'Hello world, click here.', 'Hello', 'world', 'click here']);
      expect(prepared.words).toBe(5);
    });

    it('keeps comments, doctype, style, pre, code, textarea and translate="no" subtrees unchanged', async () => {
      const html = [
        '<!DOCTYPE html><html><head><style>p { color: red; }</style><title>Welcome home</title></head><body>',
        '<!-- a comment about the page -->',
        '<p>Run <code>npm install</code> now</p>',
        '<pre>keep   this\n  text</pre>',
        '<textarea name="note">Some default text</textarea>',
        '<p>Made by <span translate="no">Acme Tools</span> in Berlin</p>',
        '<div translate="NO"><p>Keep this paragraph</p><b>and this</b></div>',
        '</body></html>',
      ].join('\n');
      const { translations, engine } = await translate({ texts: [html], format: 'html' });
      expect(translations[0]).toBe(
        html
          .replace('Welcome home', 'WELCOME HOME')
          .replace('Run <code>npm install</code> now', 'RUN <code>npm install</code> NOW')
          .replace('Made by <span translate="no">Acme Tools</span> in Berlin', 'MADE BY <span translate="no">Acme Tools</span> IN BERLIN'),
      );
      expect(engine.segments).toEqual(['Welcome home', 'Run <x id="1"/> now', 'Made by <x id="1"/> in Berlin']);
    });

    it('decodes entities for the engine and writes them back in the source spelling', async () => {
      const { translations, engine } = await translate({ texts: ['<p>Fish &amp; chips&nbsp;today &copy; Bob &lt;3 &quot;ok&quot;</p>'], format: 'html' });
      expect(engine.segments).toEqual(['Fish &amp; chips\u00a0today © Bob &lt;3 "ok"']);
      expect(translations).toEqual(['<p>FISH &amp; CHIPS&nbsp;TODAY &copy; BOB &lt;3 &quot;OK&quot;</p>']);
    });

    it('reads an attribute value with its character references and writes its template syntax and ICU skeleton back as they were', async () => {
      const html = '<img alt="Photo of {{ a && b }} &amp; <%= c < d %>"><img title="{n, plural, one {# car &amp; bike} other {# &quot;cars&quot;}}">';
      const { translations, engine, prepared } = await translate({ texts: [html], format: 'html' });
      expect(translations).toEqual(['<img alt="PHOTO OF {{ a && b }} &amp; <%= c < d %>"><img title="{n, plural, one {# CAR &amp; BIKE} other {# &quot;CARS&quot;}}">']);
      expect(engine.segments).toEqual(['Photo of <x id="1"/> &amp;', 'car &amp; bike', '"cars"']);
      expect(prepared.words).toBe(2 + 2 + 1);
    });

    it('writes "&", "<" and ">" bare where the source wrote them bare, but escaped where they would begin a reference or a tag', async () => {
      // The engine adds a "<" before a letter and an "&" before a name: written bare, they would be a tag and an entity.
      const engine = new UpperCaseEngine((segments) => segments.map((segment) => segment.replace('SHAPE', '&lt;SHAPE').replace(' D', ' D &amp;COPY;')));
      const { translations } = await translate({ texts: ['<p>Canvas & Shape: a < b and c > d</p>', '<p>Fish &amp; chips & more &gt; less</p>'], format: 'html' }, engine);
      expect(translations).toEqual(['<p>CANVAS & &lt;SHAPE: A < B AND C > D &amp;COPY;</p>', '<p>FISH &amp; CHIPS &amp; MORE &gt; LESS</p>']);
    });

    it('leaves text the engine gives back unchanged, and whitespace-only text, exactly as it was', async () => {
      const html = '<ul>\n  <li>2024 &#8212; 2025</li>\n  <li>&#x31;0</li>\n</ul>\n';
      const { translations } = await translate({ texts: [html], format: 'html' });
      expect(translations).toEqual([html]);
    });

    it('turns empty inline elements into placeholders and keeps odd markup as it was written', async () => {
      const html = '<P CLASS=intro>Line one<br>line two <img src="a.png" alt="An image"/> end</P><a  HREF = \'/x\'  data-x="a>b">link</a> <p>one<p>two</div>tail';
      const { translations, engine } = await translate({ texts: [html], format: 'html' });
      expect(translations).toEqual([
        '<P CLASS=intro>LINE ONE<br>LINE TWO <img src="a.png" alt="AN IMAGE"/> END</P><a  HREF = \'/x\'  data-x="a>b">LINK</a> <p>ONE<p>TWO</div>TAIL',
      ]);
      expect(engine.segments.slice(0, 3)).toEqual(['Line one', 'An image', 'line two <x id="1"/> end']);
    });

    it('finds tags as browsers do: odd comments, stray end tags, raw text and cut-off tags stay as sent', async () => {
      const html = [
        '<!--><p>one < two and 3 <3</p><!---->',
        '</><p>stray</ p> end</p>',
        '<script>if (a </scriptx> b) {}</script >after',
        '<title>A <b> title</title>',
        '<![CDATA[ x ]]>cdata<?php echo 1 ?>',
        '<P>last<img alt="cut',
      ].join('');
      const { translations } = await translate({ texts: [html], format: 'html' });
      expect(translations).toEqual([
        [
          '<!--><p>ONE < TWO AND 3 <3</p><!---->',
          '</><p>STRAY</ p> END</p>',
          '<script>if (a </scriptx> b) {}</script >AFTER',
          '<title>A &lt;b> TITLE</title>',
          '<![CDATA[ x ]]>CDATA<?php echo 1 ?>',
          '<P>LAST<img alt="cut',
        ].join(''),
      ]);
    });

    it('keeps a tag whose partner is outside the sentence as an opaque placeholder', async () => {
      const { translations, engine } = await translate({ texts: ['<div><b>Bold start<p>inner text</p> bold end</b></div>'], format: 'html' });
      expect(translations).toEqual(['<div><b>BOLD START<p>INNER TEXT</p> BOLD END</b></div>']);
      expect(engine.segments).toEqual(['Bold start', 'inner text', 'bold end']);
    });

    it('counts only the words of text nodes', async () => {
      const { prepared } = await translate({ texts: ['<p class="long class names">Two words</p><!-- not counted --><script>var notCounted = 1;</script>'], format: 'html' });
      expect(prepared.words).toBe(2);
    });
  });

  describe('format json', () => {
    it('translates string values only and keeps keys, numbers and variables', async () => {
      const json = '{"title":"Good morning","count":3,"nested":{"items":["Thank you","{name} has arrived"]}}';
      const { translations, prepared, engine } = await translate({ texts: [json], format: 'json' });
      expect(translations).toEqual(['{"title":"GOOD MORNING","count":3,"nested":{"items":["THANK YOU","{name} HAS ARRIVED"]}}']);
      expect(JSON.parse(translations[0])).toEqual({ title: 'GOOD MORNING', count: 3, nested: { items: ['THANK YOU', '{name} HAS ARRIVED'] } });
      expect(prepared.words).toBe(6);
      expect(engine.segments).toEqual(['Good morning', 'Thank you', '<x id="1"/> has arrived']);
    });

    it('keeps formatting, key order, number spelling, escapes and non-string values', async () => {
      const json = '{\n  "2": "second",\n  "1": "first\\nline",\n  "price": 1.0,\n  "big": 12345678901234567890,\n  "ok": true,\n  "none": null,\n  "code": "\\u00e9 42",\n  "list": [ "a\\"quoted\\" word", 7 ]\n}';
      const { translations } = await translate({ texts: [json], format: 'json' });
      expect(translations).toEqual([
        '{\n  "2": "SECOND",\n  "1": "FIRST\\nLINE",\n  "price": 1.0,\n  "big": 12345678901234567890,\n  "ok": true,\n  "none": null,\n  "code": "É 42",\n  "list": [ "A\\"QUOTED\\" WORD", 7 ]\n}',
      ]);
    });

    it('leaves ARB metadata under keys starting with @ untranslated and uncounted, at any depth', async () => {
      const arb = JSON.stringify({
        '@@locale': 'en',
        title: 'Good morning',
        '@title': { description: 'Greeting on the home page', placeholders: { name: { example: 'Ann' } } },
        menu: { open: 'Open file', '@open': 'Menu entry', '@hidden': ['Shown nowhere'] },
      }).replace('"@hidden"', '"\\u0040hidden"');
      const { translations, prepared, engine } = await translate({ texts: [arb], format: 'json' });
      expect(JSON.parse(translations[0])).toEqual({ ...JSON.parse(arb), '@@locale': 'es', title: 'GOOD MORNING', menu: { ...JSON.parse(arb).menu, open: 'OPEN FILE' } });
      expect(engine.segments).toEqual(['Good morning', 'Open file']);
      expect(prepared.words).toBe(4);
    });

    it('translates only the message of a WebExtension messages.json entry, not its description or placeholders', async () => {
      const messages = JSON.stringify({
        intro: { message: 'Learn more $LINK$', description: 'Shown on the first page', placeholders: { link: { content: '$1', example: 'Click here' } } },
        plain: { message: 'Help', description: '' },
        // Not WebExtension messages: a locale file's own `message` and `description` keys among others are text like any other.
        status: { message: 'Saved', code: 'Done' },
        labels: { message: 'Message', description: 'Description', title: 'Title' },
        list: [{ message: 'Open', description: 'Menu entry' }],
      });
      const { translations, prepared, engine } = await translate({ texts: [messages], format: 'json' });
      expect(JSON.parse(translations[0])).toEqual({
        ...JSON.parse(messages),
        intro: { ...JSON.parse(messages).intro, message: 'LEARN MORE $LINK$' },
        plain: { message: 'HELP', description: '' },
        status: { message: 'SAVED', code: 'DONE' },
        labels: { message: 'MESSAGE', description: 'DESCRIPTION', title: 'TITLE' },
        list: [{ message: 'OPEN', description: 'Menu entry' }],
      });
      expect(engine.segments).not.toContain('Shown on the first page');
      expect(prepared.words).toBe(9);
    });

    it('writes the target code where @@locale or locale at the top names the source language, in its case and without its region', async () => {
      const cases: [string, string][] = [
        ['{"@@locale": "en", "a": "Hi"}', '{"@@locale": "es", "a": "HI"}'],
        ['{"locale":"EN_US","a":"Hi"}', '{"locale":"ES","a":"HI"}'],
        ['{"locale": "en-GB"}', '{"locale": "es"}'],
        // Another language's code stays, untranslated; so do codes below the top and in arrays.
        ['{"locale": "de", "x": {"locale": "en"}, "y": ["en"]}', '{"locale": "de", "x": {"locale": "EN"}, "y": ["EN"]}'],
        // A value that is not a language tag is text like any other.
        ['{"locale": "Choose a language"}', '{"locale": "CHOOSE A LANGUAGE"}'],
      ];
      for (const [json, expected] of cases) {
        expect((await translate({ texts: [json], format: 'json' })).translations).toEqual([expected]);
      }
      // The code is not text: neither sent nor counted.
      const { prepared, engine } = await translate({ texts: ['{"locale": "en", "a": "Hi"}'], format: 'json' });
      expect(engine.segments).toEqual(['Hi']);
      expect(prepared.words).toBe(1);
    });

    it('refuses a text that is not valid JSON with 422 naming it', async () => {
      const error = await rejection(pipelineWith(new UpperCaseEngine()).prepare({ texts: ['{"a":"b"}', '{"a": "b",}'], source: 'en', target: 'es', format: 'json', tier: 'basic' }));
      expect(error.getStatus()).toBe(422);
      expect(error.code).toBe('unsupported_language');
      expect(error.message).toMatch(/^texts\[1\] is not valid JSON: /);
    });
  });

  describe('format text', () => {
    it('keeps paragraphs, line breaks and surrounding whitespace exactly, and translates each line on its own', async () => {
      const text = '  Hello world.\n\nSecond paragraph\r\nwith a line break.  \n\n\n  Third one\n';
      const { translations, engine } = await translate({ texts: [text] });
      expect(translations).toEqual([text.toUpperCase()]);
      expect(engine.segments).toEqual(['Hello world.', 'Second paragraph', 'with a line break.', 'Third one']);
    });

    it('cuts a long paragraph at sentence boundaries and joins it back exactly', async () => {
      const text = Array.from({ length: 120 }, (_, i) => `Sentence number ${i} is here.`).join(' ');
      const { translations, engine, prepared } = await translate({ texts: [text] });
      expect(translations).toEqual([text.toUpperCase()]);
      expect(engine.segments.length).toBeGreaterThan(1);
      expect(engine.segments.every((segment) => segment.length <= MAX_SEGMENT_CHARS)).toBe(true);
      expect(prepared.words).toBe(120 * 5);
    });

    it('translates every line on its own, whatever its line break, and gives every break back with the spaces around it', async () => {
      const text = 'Close\nCut\r\nOpen \r Save\u2028Print\u2029\u2029Quit now';
      const { translations, engine } = await translate({ texts: [text] });
      expect(translations).toEqual([text.toUpperCase()]);
      expect(engine.segments).toEqual(['Close', 'Cut', 'Open', 'Save', 'Print', 'Quit now']);
      const json = await translate({ texts: ['{"menu": "Close\\nCut"}'], format: 'json' });
      expect(json.translations).toEqual(['{"menu": "CLOSE\\nCUT"}']);
      expect(json.engine.segments).toEqual(['Close', 'Cut']);
    });
  });

  describe('ICU messages', () => {
    it('translates each message of a plural written over several lines and keeps the rest byte for byte', async () => {
      const text = '{count} {count, plural,\n one {one file}\n other {# files}\n}';
      const { translations, engine, prepared } = await translate({ texts: [text] });
      expect(translations).toEqual(['{count} {count, plural,\n one {ONE FILE}\n other {# FILES}\n}']);
      expect(engine.segments).toEqual(['one file', 'files']);
      expect(prepared.words).toBe(3);
    });

    it('translates the text around a choice with the choice as one placeholder, and nested choices message by message', async () => {
      const text = 'Hello {name}, {g, select, female {she has {n, plural, =0 {no files} other {# files}}} other {they have {n, plural, =0 {no files} other {# files}}}} today';
      const { translations, engine, prepared } = await translate({ texts: [text] });
      expect(translations).toEqual([
        'HELLO {name}, {g, select, female {SHE HAS {n, plural, =0 {NO FILES} other {# FILES}}} other {THEY HAVE {n, plural, =0 {NO FILES} other {# FILES}}}} TODAY',
      ]);
      expect(engine.segments).toEqual(['Hello <x id="1"/>, <x id="2"/> today', 'she has', 'no files', 'files', 'they have', 'no files', 'files']);
      expect(prepared.words).toBe(12);
    });

    it('keeps offsets, selectordinal, typed arguments and skeletons', async () => {
      const text = '{n, plural, offset:1 =0 {nobody} other {you and # others}} paid {amount, number, ::currency/EUR} on {d, date, short}; {p, selectordinal, one {#st} other {#th}} place';
      const { translations } = await translate({ texts: [text] });
      expect(translations).toEqual([
        '{n, plural, offset:1 =0 {NOBODY} other {YOU AND # OTHERS}} PAID {amount, number, ::currency/EUR} ON {d, date, short}; {p, selectordinal, one {#ST} other {#TH}} PLACE',
      ]);
    });

    it('gives the engine the characters the message means and writes its apostrophes and quoted literals back as ICU needs', async () => {
      const text = "{n, plural, one {it''s # file} other {it''s # files, '{'not'}' '#'}}";
      const { translations, engine } = await translate({ texts: [text] });
      expect(engine.segments).toEqual(["it's <x id=\"1\"/> file", "it's <x id=\"1\"/> files, <x id=\"2\"/>not"]);
      expect(translations).toEqual(["{n, plural, one {IT''S # FILE} other {IT''S # FILES, '{'NOT'}' '#'}}"]);
    });

    it('quotes braces, and # in a plural, that an engine writes, so that the message still parses the same', async () => {
      const engine = new UpperCaseEngine((segments) => segments.map((segment) => segment.replace('FILE', "{FI'LE} #'")));
      const text = '{n, plural, one {# file} other {# files}} {g, select, other {a file}}';
      const { translations } = await translate({ texts: [text] }, engine);
      expect(translations).toEqual(["{n, plural, one {# '{'FI'LE'}' '#'''} other {# '{'FI'LE'}' '#'''S}} {g, select, other {A '{'FI'LE'}' #''}}"]);
      const [plural, , select] = parse(translations[0]) as [PluralElement, unknown, SelectElement];
      expect(plural.options.one.value[1]).toMatchObject({ type: TYPE.literal, value: " {FI'LE} #'" });
      expect(select.options.other.value[0]).toMatchObject({ type: TYPE.literal, value: "A {FI'LE} #'" });
    });

    it('gives a message back as sent rather than with another skeleton (here an engine that doubles a placeholder)', async () => {
      const engine = new UpperCaseEngine((segments) => segments.map((segment) => segment.replace('<x id="1"/>', '<x id="1"/><x id="1"/>')));
      const text = '{n, plural, one {one # file} other {all # files}}';
      expect((await translate({ texts: [text] }, engine)).translations).toEqual([text]);
    });

    it('keeps the messages of a select in source order whatever their selectors', async () => {
      const { translations } = await translate({ texts: ['{n, select, 1 {one} 0 {zero} other {more}}'] });
      expect(translations).toEqual(['{n, select, 1 {ONE} 0 {ZERO} other {MORE}}']);
    });

    it('reads a JSON string value as a message, over several lines', async () => {
      const { translations } = await translate({ texts: ['{"files": "{n, plural,\\n one {# file}\\n other {# files}\\n}"}'], format: 'json' });
      expect(translations).toEqual(['{"files": "{n, plural,\\n one {# FILE}\\n other {# FILES}\\n}"}']);
    });

    it('reads a text without plural or select as plain text: a quoted variable stays a variable', async () => {
      const { translations, engine, prepared } = await translate({ texts: ["Click '{name}'"] });
      expect(translations).toEqual(["CLICK '{name}'"]);
      expect(engine.segments).toEqual(["Click '<x id=\"1\"/>'"]);
      expect(prepared.words).toBe(1);
    });

    it.each([
      ['You have {n, plural, one {# file} other {# files} left', 'YOU HAVE {n, plural, one {# file} other {# files} left'],
      ['{n, plural, one {# file}} and more', '{n, plural, one {# file}} AND MORE'],
      ['Files:\n{n, plural,\n one {# file}\n}\nDone', 'FILES:\n{n, plural,\n one {# file}\n}\nDONE'],
    ])('keeps what looks like a choice whole, braces and all, in a text that is not a message: %j', async (text, expected) => {
      const { translations } = await translate({ texts: [text] });
      expect(translations).toEqual([expected]);
    });

    it.each([17, 1000])('keeps a message whose choices nest %i deep whole, as no real message does', async (depth) => {
      const text = `${'{a, plural, other {deep '.repeat(depth)}${'}}'.repeat(depth)} text`;
      const { translations, prepared } = await translate({ texts: [text] });
      expect(translations).toEqual([`${text.slice(0, -5)} TEXT`]);
      expect(prepared.words).toBe(1);
    });
  });

  describe('variables', () => {
    it.each([
      ['Hello {name}, welcome', 'HELLO {name}, WELCOME', 2],
      ['Hello {{ user.name }} and {{count}}', 'HELLO {{ user.name }} AND {{count}}', 2],
      ['You have %d new messages from %s', 'YOU HAVE %d NEW MESSAGES FROM %s', 5],
      ['Move %1$s to %2$s at %.2f percent or 100% done %%', 'MOVE %1$s TO %2$s AT %.2f PERCENT OR 100% DONE %%', 7],
      ['Hi %(user)s and %@', 'HI %(user)s AND %@', 2],
      ['Total: ${amount} today', 'TOTAL: ${amount} TODAY', 2],
      ['You have {count, plural, one {# item} other {# items}} in {place}', 'YOU HAVE {count, plural, one {# ITEM} other {# ITEMS}} IN {place}', 5],
      ['Sent on {date, date, short} to {0}', 'SENT ON {date, date, short} TO {0}', 3],
      ['Braces { like this } are text', 'BRACES { LIKE THIS } ARE TEXT', 5],
    ])('%s', async (text, expected, words) => {
      const { translations, prepared } = await translate({ texts: [text] });
      expect(translations).toEqual([expected]);
      expect(prepared.words).toBe(words);
    });

    it('passes variables in html and json through as well', async () => {
      const html = await translate({ texts: ['<p>Hi <b>{name}</b>, %d items</p>'], format: 'html' });
      expect(html.translations).toEqual(['<p>HI <b>{name}</b>, %d ITEMS</p>']);
      expect(html.engine.segments).toEqual(['Hi <g id="1"><x id="2"/></g>, <x id="3"/> items']);
      const json = await translate({ texts: ['["%s of ${total} done"]'], format: 'json' });
      expect(json.translations).toEqual(['["%s OF ${total} DONE"]']);
      expect(json.prepared.words).toBe(2);
    });
  });

  describe('words and price', () => {
    it('counts words per text and in total, in any script', async () => {
      const { prepared } = await translate({ texts: ['東京は日本の首都です。', 'Καλημέρα κόσμε', 'Привет, как дела?', "l'homme d'affaires", '42 !!!', ''] });
      expect(prepared.wordsPerText).toEqual([6, 2, 3, 2, 1, 0]);
      expect(prepared.words).toBe(14);
    });

    it.each([
      ['basic', 1, 1],
      ['pro', 1, 1],
      ['basic', 50, 1],
      ['basic', 51, 2],
      ['pro', 1000, 40],
      ['review', 1001, 121],
    ] as const)('tier %s, %i words costs %i cents', async (tier, words, cents) => {
      const { prepared } = await translate({ texts: [Array.from({ length: words }, () => 'word').join(' ')], tier, glossary: undefined });
      expect(prepared.words).toBe(words);
      expect(prepared.costCents).toBe(cents);
    });

    it('costs nothing for nothing to translate, and calls no engine', async () => {
      const { prepared, translations, engine } = await translate({ texts: ['<p> </p>'], format: 'html', tier: 'review' });
      expect([prepared.words, prepared.costCents]).toEqual([0, 0]);
      expect(translations).toEqual(['<p> </p>']);
      expect(engine.requests).toEqual([]);
    });

    it('takes prices from the configuration', async () => {
      const custom = loadConfig(PricingConfig, { PRICE_PRO_CENTS_PER_1000_WORDS: '1000' });
      const prepared = await new TranslationPipeline(new EngineRouter([new UpperCaseEngine()]), custom, detector).prepare({ texts: ['three little words'], source: 'en', target: 'es', format: 'text', tier: 'pro' });
      expect(prepared.costCents).toBe(3);
    });
  });

  describe('source language', () => {
    it('detects the source when it is not given', async () => {
      const { prepared } = await translate({ texts: ['<p>Der Hund schläft auf dem Sofa im Wohnzimmer.</p>'], format: 'html', source: undefined });
      expect(prepared.detectedSource).toBe('de');
    });

    it('reports the given source as it is', async () => {
      const { prepared } = await translate({ texts: ['Der Hund schläft auf dem Sofa.'], source: 'en' });
      expect(prepared.detectedSource).toBe('en');
    });

    it('detects each text on its own and translates it from its own language', async () => {
      const texts = ['Le chat dort sur le canapé rouge du salon.', 'The cat is sleeping on the red sofa.', 'Der Hund schläft im Garten hinter dem Haus.'];
      const { prepared, translations, engine } = await translate({ texts, source: undefined });
      expect(prepared.detectedSources).toEqual(['fr', 'en', 'de']);
      expect(engine.requests.map((request) => [request.source, request.segments])).toEqual([
        ['fr', ['Le chat dort sur le canapé rouge du salon.']],
        ['en', ['The cat is sleeping on the red sofa.']],
        ['de', ['Der Hund schläft im Garten hinter dem Haus.']],
      ]);
      expect(translations).toEqual(texts.map((text) => text.toUpperCase()));
    });

    it('reports the language of most words as detected_source', async () => {
      const { prepared } = await translate({ texts: ['Le chat dort.', 'The cat is sleeping on the red sofa in the living room.'], source: undefined });
      expect(prepared.detectedSources).toEqual(['fr', 'en']);
      expect(prepared.detectedSource).toBe('en');
    });

    it('gives a text too short to tell the language of the whole request', async () => {
      const { prepared } = await translate({ texts: ['Hello world', 'The cat is sleeping on the red sofa in the living room.'], source: undefined });
      expect(prepared.detectedSources).toEqual(['en', 'en']);
    });

    it('returns a text already in the target language as it is, free of charge', async () => {
      const { prepared, translations, engine } = await translate({ texts: ['El gato duerme en el sofá rojo del salón.', 'The cat is sleeping.'], source: undefined });
      expect(prepared.detectedSources).toEqual(['es', 'en']);
      expect(prepared.wordsPerText).toEqual([0, 4]);
      expect(translations).toEqual(['El gato duerme en el sofá rojo del salón.', 'THE CAT IS SLEEPING.']);
      expect(engine.segments).toEqual(['The cat is sleeping.']);
    });

    it('answers 422 naming the text whose language cannot be translated into the target', async () => {
      const englishOnly = new (class extends UpperCaseEngine {
        override async pairs(): Promise<LanguagePair[]> {
          return [{ source: 'en', target: 'es' }];
        }
      })();
      const error = await rejection(
        pipelineWith(englishOnly).prepare({ texts: ['The cat is sleeping.', 'Die Katze schläft auf dem roten Sofa.'], target: 'es', format: 'text', tier: 'basic' }),
      );
      expect(error.getStatus()).toBe(422);
      expect(error.message).toBe('texts[1] is in de, which cannot be translated to es; see GET /api/v1/languages');
    });

    it('keeps languages fixed earlier for each text, whatever the texts look like', async () => {
      const { prepared, engine } = await translate({ texts: ['The cat is sleeping on the sofa.', 'Hola'], source: undefined, sources: ['fr', 'es'] });
      expect(prepared.detectedSources).toEqual(['fr', 'es']);
      expect(engine.requests.map((request) => request.source)).toEqual(['fr']);
    });

    it('answers 422 when the language cannot be detected', async () => {
      const error = await rejection(pipelineWith(new UpperCaseEngine()).prepare({ texts: ['12345', '<p>{name}</p>'], target: 'es', format: 'text', tier: 'basic' }));
      expect(error.getStatus()).toBe(422);
      expect(error.message).toBe('could not detect the source language; give `source`');
    });
  });

  describe('glossary', () => {
    it('enforces terms in tier pro: whole words, any case, exactly the target term', async () => {
      const { translations, engine } = await translate({ texts: ['The sofa, the SOFA and the Sofa. Two sofas.'], tier: 'pro', glossary: sofaGlossary });
      expect(translations).toEqual(['THE diván, THE diván AND THE diván. TWO SOFAS.']);
      expect(engine.requests[0].hints).toBeUndefined();
    });

    it('does the same in tier review', async () => {
      const { translations } = await translate({ texts: ['A red sofa'], tier: 'review', glossary: sofaGlossary });
      expect(translations).toEqual(['A RED diván']);
    });

    it('only hints terms in tier basic', async () => {
      const { translations, engine } = await translate({ texts: ['The sofa is red.'], tier: 'basic', glossary: sofaGlossary });
      expect(translations).toEqual(['THE SOFA IS RED.']);
      expect(engine.requests[0].hints).toEqual({ sofa: 'diván' });
    });

    it('prefers the longest term, and matches multi-word terms across whitespace', async () => {
      const glossary: GlossaryTerms = {
        source: 'en',
        target: 'es',
        entries: [
          { term: 'sofa', translation: 'diván' },
          { term: 'sofa bed', translation: 'sofá cama' },
          { term: 'sofas', translation: 'divanes' },
        ],
      };
      const { translations } = await translate({ texts: ['A sofa bed, a sofa  bed, sofas and a sofa.'], tier: 'pro', glossary });
      expect(translations).toEqual(['A sofá cama, A sofá cama, divanes AND A diván.']);
    });

    it('leaves terms in other attributes and variables alone, and writes target terms HTML-escaped, in text and text attributes', async () => {
      const glossary: GlossaryTerms = { source: 'en', target: 'es', entries: [{ term: 'sofa', translation: 'sofá & co' }] };
      const { translations } = await translate({ texts: ['<a title="sofa" href="/sofa">sofa</a> {sofa}'], format: 'html', tier: 'pro', glossary });
      expect(translations).toEqual(['<a title="sofá &amp; co" href="/sofa">sofá &amp; co</a> {sofa}']);
    });

    it('answers 422 when the glossary source differs from the given or detected source', async () => {
      const pipeline = pipelineWith(new UpperCaseEngine());
      const given = await rejection(pipeline.prepare({ texts: ['The sofa'], source: 'de', target: 'es', format: 'text', tier: 'pro', glossary: sofaGlossary }));
      expect(given.getStatus()).toBe(422);
      expect(given.message).toBe("the glossary's source language is en, but the texts are in de");
      const detected = await rejection(pipeline.prepare({ texts: ['Das Sofa steht im Wohnzimmer neben dem Fenster.'], target: 'es', format: 'text', tier: 'pro', glossary: sofaGlossary }));
      expect(detected.message).toBe("the glossary's source language is en, but the texts are in de");
    });

    it('names the text that is not in the glossary source language', async () => {
      const error = await rejection(
        pipelineWith(new UpperCaseEngine()).prepare({
          texts: ['The sofa is in the living room.', 'Das Sofa steht im Wohnzimmer neben dem Fenster.'],
          target: 'es',
          format: 'text',
          tier: 'pro',
          glossary: sofaGlossary,
        }),
      );
      expect(error.message).toBe("the glossary's source language is en, but texts[1] is in de");
    });

    it('sends terms as words, with each term alone in the same call to learn how the engine renders it', async () => {
      const { translations, engine } = await translate({ texts: ['The sofa & the <b>sofa</b>.', 'A sofa & co.'], format: 'html', tier: 'pro', glossary: sofaGlossary });
      expect(translations).toEqual(['THE diván & THE <b>diván</b>.', 'A diván & CO.']);
      // The HTML sentence comes with its second opinions (untagged, and each stretch alone).
      expect(engine.segments).toEqual(['The sofa &amp; the <g id="1">sofa</g>.', 'The sofa &amp; the sofa.', 'The sofa &amp; the', 'sofa', 'A sofa &amp; co.', 'sofa']);
    });

    it('protects the terms of a segment as placeholders where the rendering is not found as often as the term occurs', async () => {
      // In context the engine writes "SOFAS", alone "SOFA"; the other segment has it right.
      const inflects = new UpperCaseEngine((segments, call) => (call === 1 ? segments.map((s) => s.replace('THE SOFA', 'THE SOFAS')) : segments));
      const { translations, engine } = await translate({ texts: ['The sofa', 'A sofa'], tier: 'pro', glossary: sofaGlossary }, inflects);
      expect(translations).toEqual(['THE diván', 'A diván']);
      expect(engine.requests.map((request) => request.segments)).toEqual([['The sofa', 'A sofa', 'sofa'], ['The <x id="1"/>']]);
    });

    it('retries a protected term the engine dropped once more, then fails with EngineError', async () => {
      const reword = (segments: string[]) => segments.map((s) => s.replace('THE SOFA', 'THE COUCH'));
      const dropOnce = new UpperCaseEngine((segments, call) => (call === 2 ? reword(segments).map((s) => s.replace(/<x id="\d+"\/>/g, '')) : reword(segments)));
      const retried = await translate({ texts: ['The sofa'], tier: 'pro', glossary: sofaGlossary }, dropOnce);
      expect(retried.translations).toEqual(['THE diván']);
      expect(dropOnce.requests).toHaveLength(3);

      const dropAlways = new UpperCaseEngine((segments) => reword(segments).map((s) => s.replace(/<x id="\d+"\/>/g, '')));
      await expect(translate({ texts: ['The sofa'], tier: 'pro', glossary: sofaGlossary }, dropAlways)).rejects.toThrow(EngineError);
      expect(dropAlways.requests).toHaveLength(3);
    });
  });

  describe('engine calls', () => {
    it('batches segments and reassembles them in input order', async () => {
      const texts = Array.from({ length: 120 }, (_, i) => `Text number ${i}`);
      const { translations, engine } = await translate({ texts });
      expect(translations).toEqual(texts.map((text) => text.toUpperCase()));
      expect(engine.requests.map((request) => request.segments.length)).toEqual([50, 50, 20]);
      expect(engine.requests[0]).toMatchObject({ source: 'en', target: 'es' });
    });

    it('retries a failed engine call once', async () => {
      let calls = 0;
      const flaky = new UpperCaseEngine((segments) => {
        if (++calls === 1) throw new EngineError('pipeline died');
        return segments;
      });
      expect((await translate({ texts: ['Hello'] }, flaky)).translations).toEqual(['HELLO']);

      const broken = new UpperCaseEngine(() => {
        throw new EngineError('pipeline died');
      });
      await expect(translate({ texts: ['Hello'] }, broken)).rejects.toThrow('pipeline died');
      expect(broken.requests).toHaveLength(2);
    });

    it('answers 422 for a pair the engine does not have, before any engine call', async () => {
      const engine = new UpperCaseEngine();
      const error = await rejection(translate({ texts: ['Hello'], target: 'mt' }, engine));
      expect(error.getStatus()).toBe(422);
      expect(error.message).toBe('target language mt is not available; see GET /api/v1/languages');
      expect(engine.requests).toHaveLength(0);
    });

    it('answers 422 when the engine loses a pair between preparing and translating', async () => {
      const engine = new UpperCaseEngine(() => {
        throw new UnsupportedPairError({ source: 'en', target: 'es' });
      });
      const error = await rejection(translate({ texts: ['Hello'] }, engine));
      expect(error.getStatus()).toBe(422);
      expect(error.message).toBe('target language es is not available for source language en');
    });

    it('puts back markup and variables an engine keeps dropping: words stay in their element, the rest at the end', async () => {
      const dropper = new UpperCaseEngine((segments) => segments.map((s) => s.replace(/<x id="\d+"\/>|<\/?g[^>]*>/g, '')));
      const { translations } = await translate({ texts: ['<p>Hi <b>there</b> {name} now</p>'], format: 'html' }, dropper);
      expect(translations).toEqual(['<p>HI <b>THERE</b> NOW{name}</p>']);
    });
  });

  describe('with several engines', () => {
    /** An engine of its own name, failing while `down` is set. */
    class NamedEngine implements TranslationEngine {
      down = false;
      private readonly upperCase = new UpperCaseEngine();
      constructor(readonly name: string) {}
      pairs = () => this.upperCase.pairs();
      async translate(request: EngineRequest): Promise<string[]> {
        if (this.down) throw new EngineError(`${this.name} is down`);
        return this.upperCase.translate(request);
      }
    }

    it('reports the engine that translated and counts its words per pair, and the next engine when the first fails', async () => {
      const [first, second] = [new NamedEngine('first'), new NamedEngine('second')];
      const metrics = new MetricsRegistry();
      const pipeline = new TranslationPipeline(new EngineRouter([first, second]), pricing, detector, metrics);
      const run = async () => pipeline.run(await pipeline.prepare({ texts: ['three little words', 'and two'], source: 'en', target: 'es', format: 'text', tier: 'basic' }));

      expect(await run()).toEqual({ translations: ['THREE LITTLE WORDS', 'AND TWO'], engines: ['first'] });
      first.down = true;
      expect(await run()).toEqual({ translations: ['THREE LITTLE WORDS', 'AND TWO'], engines: ['second'] });
      second.down = true;
      await expect(run()).rejects.toThrow(new EngineError('second is down'));

      const text = await metrics.registry.metrics();
      expect(text).toContain('translation_words_total{engine="first",source="en",target="es"} 5');
      expect(text).toContain('translation_words_total{engine="second",source="en",target="es"} 5');
    });
  });

  it('counts words per source language when the texts are in several', async () => {
    const metrics = new MetricsRegistry();
    const pipeline = new TranslationPipeline(new EngineRouter([new UpperCaseEngine()]), pricing, detector, metrics);
    const prepared = await pipeline.prepare({ texts: ['three little words', 'deux mots'], sources: ['en', 'fr'], target: 'es', format: 'text', tier: 'basic' });
    expect((await pipeline.run(prepared)).engines).toEqual(['upper-case']);
    const text = await metrics.registry.metrics();
    expect(text).toContain('translation_words_total{engine="upper-case",source="en",target="es"} 3');
    expect(text).toContain('translation_words_total{engine="upper-case",source="fr",target="es"} 2');
  });

  it('is provided by TranslationPipelineModule with the EngineRouter of the app', async () => {
    @Global()
    @Module({ providers: [{ provide: EngineRouter, useValue: new EngineRouter([new UpperCaseEngine()]) }], exports: [EngineRouter] })
    class TestEngineModule {}

    const moduleRef = await Test.createTestingModule({ imports: [TestEngineModule, TranslationPipelineModule.forRoot(pricing)] }).compile();
    const pipeline = moduleRef.get(TranslationPipeline);
    const prepared = await pipeline.prepare({ texts: ['Hello there'], source: 'en', target: 'es', format: 'text', tier: 'pro' });
    expect(await pipeline.run(prepared)).toEqual({ translations: ['HELLO THERE'], engines: ['upper-case'] });
    await moduleRef.close();
  });
});
