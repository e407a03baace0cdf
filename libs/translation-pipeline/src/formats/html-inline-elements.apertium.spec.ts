import { existsSync } from 'node:fs';
import { loadConfig } from '@platform/service-kit';
import { ApertiumEngine, EngineRouter } from '@platform/translation-engines';
import { Parser } from 'htmlparser2';
import { afterAll, describe, expect, it } from 'vitest';
import { LanguageDetector } from '../detection/language-detector';
import { PricingConfig } from '../pricing/pricing.config';
import { TranslationPipeline } from '../translation-pipeline';

const MODES_DIR = '/usr/share/apertium/modes';
const installed = existsSync(MODES_DIR);

/** Documentation and README sentences with several inline elements each, as they are written on real pages. */
const SENTENCES = [
  '<p>Using <code>_.template</code> <strong>will</strong> create a function.</p>',
  '<p>Calling <code>_.template</code> <b>will</b> create a function.</p>',
  "<p>Creates an array of the <b>object</b>'s own enumerable properties.</p>",
  "<p>It iterates over the <b>collection</b>'s elements.</p>",
  "<p>Set the <b>user</b>'s <em>display</em> name.</p>",
  '<p>This method is like <a href="#uniq"><code>_.uniq</code></a> except that it accepts <em>iteratee</em> which is invoked for each element.</p>',
  '<p>The <strong>order</strong> of result values is determined by the order they occur in the <em>first</em> array.</p>',
  '<p>Note: This method <b>mutates</b> <code>array</code>.</p>',
  '<p>See the <a href="https://developer.mozilla.org/docs/Web/HTML">HTML reference</a> for a <em>complete</em> list of elements.</p>',
  "<p>The <code>&lt;b&gt;</code> element is used to draw the reader's <strong>attention</strong> to the element's contents.</p>",
  '<p>Use the <a href="/docs/install"><b>installation guide</b></a> to set up your <em>local</em> environment.</p>',
  '<p>Read the <a href="CONTRIBUTING.md">contributing guide</a> before opening a <b>pull request</b>.</p>',
  '<p>You <em>must</em> restart the server after changing the <b>configuration</b> file.</p>',
  '<p>Click <a href="/settings">here</a> to change your <strong>password</strong>!</p>',
  '<p>This <b>does</b> not change the <em>original</em> array.</p>',
  '<p>The callback <em>should</em> return a <b>promise</b>.</p>',
  '<p>It <em>has</em> been <b>deprecated</b>.</p>',
  '<p>The function returns <em>true</em> if the value is an <b>array</b>, else <em>false</em>.</p>',
  '<p>Get the <a href="/x"><b>latest</b> version</a> of the <em>library</em>.</p>',
  '<p>Visit <a href="https://example.org"><b>our website</b></a> and <a href="/blog"><em>read our blog</em></a>.</p>',
  '<p>Remember the <em>key</em>: it is <b>secret</b>.</p>',
  '<p>What is the <b>answer</b>?</p>',
  '<p>Please <strong>do not</strong> report security issues on the public tracker.</p>',
  '<p>See the <a href="/api">API</a>, the <a href="/guide">guide</a> and the <a href="/faq">FAQ</a>.</p>',
  '<p>Thanks to all our <a href="/sponsors">sponsors</a> and <a href="/backers">backers</a>!</p>',
  '<p>Returns the <a href="#x">index</a> of the <b>matched</b> value, else <code>-1</code>.</p>',
  '<p>Press <kbd>Ctrl</kbd> and <kbd>C</kbd> to copy the <em>selected</em> text.</p>',
  '<p>Install the <a href="https://nodejs.org">Node.js</a> runtime, version <b>18</b> or later.</p>',
  '<p>Is it <b>your</b> book?</p>',
];

/** Elements whose content is kept as sent, so their words are not the engine's. */
const PROTECTED = new Set(['code']);
const WORD = /[\p{L}\p{N}]+/gu;
const SENTENCE_END = /[.!?:]$/u;
const PUNCTUATION_AT_EDGE = { end: /\p{Po}$/u, start: /^\p{Po}/u };

interface ElementText {
  name: string;
  attributes: Record<string, string>;
  protected: boolean;
  text: string;
  before: string;
  after: string;
}

/** The inline elements of one paragraph in order of their start tags, each with its text and the paragraph's text before and after it. */
function elementsOf(html: string): ElementText[] {
  let text = '';
  const open: { name: string; attributes: Record<string, string>; start: number; index: number }[] = [];
  const found: ({ start: number; end: number } & Omit<ElementText, 'text' | 'before' | 'after' | 'protected'>)[] = [];
  const parser = new Parser({
    onopentag: (name, attributes) => {
      if (name === 'p') return;
      open.push({ name, attributes, start: text.length, index: found.length });
      found.push({ name, attributes, start: text.length, end: -1 });
    },
    ontext: (data) => (text += data),
    onclosetag: (name) => {
      if (name === 'p') return;
      found[open.pop()!.index].end = text.length;
    },
  });
  parser.write(html);
  parser.end();
  return found.map(({ name, attributes, start, end }) => {
    const within = found.filter((other) => other.start <= start && other.end >= end);
    return { name, attributes, protected: within.some((other) => PROTECTED.has(other.name)), text: text.slice(start, end), before: text.slice(0, start), after: text.slice(end) };
  });
}

const words = (text: string) => text.toLowerCase().match(WORD) ?? [];
/** Related word forms: the same word, or the same first three letters or more (Spanish agreement: "nueva", "nuevo"). */
const related = (a: string, b: string) => a === b || (a.length >= 3 && b.length >= 3 && a.slice(0, 3) === b.slice(0, 3));

describe.skipIf(!installed)('inline elements keep their words through Apertium (en → es)', () => {
  const engine = installed ? new ApertiumEngine({ modesDir: MODES_DIR }) : undefined!;
  const pipeline = new TranslationPipeline(new EngineRouter([engine]), loadConfig(PricingConfig, {}), new LanguageDetector());
  afterAll(() => engine?.close());

  async function translate(texts: string[]): Promise<string[]> {
    const prepared = await pipeline.prepare({ texts, source: 'en', target: 'es', format: 'html', tier: 'basic' });
    return (await pipeline.run(prepared)).translations;
  }

  /** What the engine makes of each element's text alone: the only words besides its own that may show up inside it. */
  async function aloneTranslations(elements: ElementText[]): Promise<string[]> {
    const texts = elements.map((element) => element.text.replace(/[&<>]/g, (char) => `&#${char.charCodeAt(0)};`));
    return engine.translate({ source: 'en', target: 'es', segments: texts });
  }

  it('gives every element its own words, leaves punctuation and the sentence end outside it, and empties none', async () => {
    const translations = await translate(SENTENCES);
    const problems: string[] = [];
    for (const [index, source] of SENTENCES.entries()) {
      const output = translations[index];
      const before = elementsOf(source);
      const after = elementsOf(output);
      const shape = (elements: ElementText[]) => elements.map(({ name, attributes }) => ({ name, attributes }));
      if (JSON.stringify(shape(after)) !== JSON.stringify(shape(before))) {
        problems.push(`${output}: elements ${JSON.stringify(shape(after))} instead of ${JSON.stringify(shape(before))}`);
        continue;
      }
      const alone = await aloneTranslations(before);
      before.forEach((sent, n) => {
        const got = after[n];
        const say = (what: string) => problems.push(`${output}: <${sent.name}> ${what}`);
        if (sent.protected) {
          if (got.text !== sent.text) say(`protected content changed to ${JSON.stringify(got.text)}`);
          return;
        }
        if (words(sent.text).length === 0) return;
        const held = words(got.text);
        if (held.length === 0) say('came back without words');
        if (held.length > 2 * words(sent.text).length + 1) say(`holds ${held.length} words for ${words(sent.text).length}`);
        const allowed = [...words(sent.text), ...words(alone[n])];
        const strangers = held.filter((word) => !allowed.some((own) => related(word, own)));
        if (strangers.length > 0) say(`holds ${JSON.stringify(strangers)}, which are neither its words nor their translation`);
        for (const edge of ['start', 'end'] as const) {
          const pattern = PUNCTUATION_AT_EDGE[edge];
          if (pattern.test(got.text.trim()) && !pattern.test(sent.text.trim())) say(`took in punctuation at its ${edge}: ${JSON.stringify(got.text)}`);
        }
        const end = SENTENCE_END.exec(sent.after.trim())?.[0];
        if (end && !got.after.trim().endsWith(end)) say(`no longer has the sentence's "${end}" after it`);
      });
    }
    expect(problems).toEqual([]);
  }, 60_000);

  it('keeps a word the engine drops when alone in its element, and the sentence end after the element', async () => {
    const translations = await translate([
      '<p>Using <code>_.template</code> <strong>will</strong> create a function.</p>',
      "<p>Creates an array of the <b>object</b>'s own enumerable properties.</p>",
      "<p>It iterates over the <b>collection</b>'s elements.</p>",
    ]);
    // Apertium drops "will" alone and fuses it with "create" in context ("<g>creará</g>  una función"); in
    // "of the <g>object</g>'s" it moves the element's end tag before its start tag.
    expect(translations).toEqual([
      '<p>Utilizando <code>_.template</code> <strong>will</strong> crear una función.</p>',
      '<p>Crea una variedad de las haciendas enumerables propias del <b>objeto</b>.</p>',
      '<p>Itera sobre los elementos de la <b>colección</b>.</p>',
    ]);
  });

  it('still moves tags to where the words went, keeps links in order and nested elements around their words', async () => {
    const translations = await translate([
      '<p>I like the red <b>sofa</b>.</p>',
      '<p>The <b>red</b> sofa is <em>comfortable</em>.</p>',
      '<p>I have a <b>red</b> car</p>',
      '<p>See the <a href="/api">API</a>, the <a href="/guide">guide</a> and the <a href="/faq">FAQ</a>.</p>',
      '<p>Visit <a href="https://example.org"><b>our website</b></a> and <a href="/blog"><em>read our blog</em></a>.</p>',
      '<p>Read the <a href="/docs">project\'s documentation</a>.</p>',
    ]);
    expect(translations).toEqual([
      '<p>Me gusta el <b>sofá</b> rojo.</p>',
      '<p>El sofá <b>rojo</b> es <em>cómodo</em>.</p>',
      // Without a sentence end the element may close the sentence where the words went.
      '<p>Tengo un coche <b>rojo</b></p>',
      '<p>Ver el <a href="/api">API</a>, la <a href="/guide">guía</a> y el <a href="/faq">FAQ</a>.</p>',
      // Nested, so with no untagged sentence to look in: "leer" in context is "leído" alone, and the stretches are used.
      '<p>Visita <a href="https://example.org"><b>nuestro sitio web</b></a> y <a href="/blog"><em>leído nuestro blog</em></a>.</p>',
      '<p>Leído <a href="/docs">la documentación del proyecto</a>.</p>',
    ]);
  });
});
