import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '@platform/service-kit';
import { ApertiumEngine, EngineRouter } from '@platform/translation-engines';
import { Tokenizer } from 'htmlparser2';
import { afterAll, describe, expect, it } from 'vitest';
import { LanguageDetector } from '../detection/language-detector';
import { PricingConfig } from '../pricing/pricing.config';
import { TranslationPipeline } from '../translation-pipeline';
import type { TranslationRequest } from '../translation-request';

const MODES_DIR = '/usr/share/apertium/modes';
const installed = existsSync(MODES_DIR);
const CORPUS = join(__dirname, 'html-corpus');
/** Attribute values that translation may change; every other byte of markup must come back as sent. */
const CHANGING = new Set(['alt', 'title', 'placeholder', 'aria-label', 'aria-description', 'value', 'lang', 'xml:lang']);

/**
 * The markup of a page as a list of tokens, read by htmlparser2's tokenizer (independent of the
 * one the format uses): start tags with their attributes, end tags, comments, declarations,
 * processing instructions and CDATA. Values of attributes that translation may change are masked.
 */
function markupOf(html: string): string[] {
  const tokens: string[] = [];
  let tag: { start: number; masks: [number, number][] } | undefined;
  let attribute: { name: string; start: number; end: number } | undefined;
  const closeTag = (end: number) => {
    let bytes = '';
    let cursor = tag!.start;
    for (const [from, to] of tag!.masks) {
      bytes += `${html.slice(cursor, from)}…`;
      cursor = to;
    }
    tokens.push(bytes + html.slice(cursor, end + 1));
    tag = undefined;
  };
  const tokenizer = new Tokenizer(
    { decodeEntities: false },
    {
      onopentagname: (start) => (tag = { start: start - 1, masks: [] }),
      onattribname: (start, end) => (attribute = { name: html.slice(start, end).toLowerCase(), start: -1, end: -1 }),
      onattribdata: (start, end) => {
        if (attribute!.start < 0) attribute!.start = start;
        attribute!.end = end;
      },
      onattribend: () => {
        if (CHANGING.has(attribute!.name) && attribute!.start >= 0) tag!.masks.push([attribute!.start, attribute!.end]);
      },
      onopentagend: closeTag,
      onselfclosingtag: closeTag,
      onclosetag: (start) => tokens.push(html.slice(start - 2, html.indexOf('>', start) + 1)),
      oncomment: (start, end) => tokens.push(`comment ${html.slice(start, end)}`),
      oncdata: (start, end) => tokens.push(`cdata ${html.slice(start, end)}`),
      ondeclaration: (start, end) => tokens.push(`declaration ${html.slice(start, end)}`),
      onprocessinginstruction: (start, end) => tokens.push(`instruction ${html.slice(start, end)}`),
      ontext: () => undefined,
      ontextentity: () => undefined,
      onattribentity: () => undefined,
      onend: () => undefined,
    },
  );
  tokenizer.write(html);
  tokenizer.end();
  return tokens;
}

/** Markup tokens that differ between input and output, position by position. */
function differences(input: string, output: string): string[] {
  const before = markupOf(input);
  const after = markupOf(output);
  const found: string[] = [];
  for (let index = 0; index < Math.max(before.length, after.length); index++) {
    if (before[index] !== after[index]) found.push(`#${index}: ${JSON.stringify(before[index])} became ${JSON.stringify(after[index])}`);
  }
  return found;
}

/** Whole protected elements, which must come back byte for byte. */
const PROTECTED = /<(pre|code|script|style|textarea|svg|math)\b[\s\S]*?<\/\1\s*>/gi;
const SPANISH = /\b(el|la|los|las|del|de|y|para|con|en|es|un|una)\b/gi;

describe.skipIf(!installed)('HTML through the pipeline with Apertium (en → es)', () => {
  const engine = installed ? new ApertiumEngine({ modesDir: MODES_DIR }) : undefined!;
  const pipeline = new TranslationPipeline(new EngineRouter([engine]), loadConfig(PricingConfig, {}), new LanguageDetector());
  afterAll(() => engine?.close());

  async function translate(texts: string[], options: Partial<TranslationRequest> = {}) {
    const prepared = await pipeline.prepare({ texts, source: 'en', target: 'es', format: 'html', tier: 'basic', ...options });
    return { prepared, translations: (await pipeline.run(prepared)).translations };
  }

  it('gives back end tags with whitespace before ">" as sent', async () => {
    const texts = ['<p>Read <b >the book</b > today.</p>', '<P>See <A HREF=#x\n>the manual</A\n> now.</P>'];
    const { translations } = await translate(texts);
    expect(translations).toEqual(['<p>Leído <b >el libro</b > hoy.</p>', '<P>Ver <A HREF=#x\n>el manual</A\n> ahora.</P>']);
  });

  it('never translates the text on the two sides of <br> as one sentence: each link keeps its own words', async () => {
    const html = '<a href="#a">Abstract</a>\n<br><a href="#b">Background</a>\n<br><a href="#c">Current Implementation</a>';
    const [translation] = (await translate([html])).translations;
    expect(differences(html, translation)).toEqual([]);
    expect(translation).toBe('<a href="#a">Abstracto</a>\n<br><a href="#b">De fondo</a>\n<br><a href="#c">Implementación actual</a>');
  });

  it('keeps block elements and table cells apart', async () => {
    const html = '<ul><li>First item<li>Second item</ul><table><tr><td>Cell one<td>Cell two</table><dl><dt>Term<dd>Definition of the term</dl>';
    const { translations, prepared } = await translate([html]);
    expect(translations[0]).toBe('<ul><li>Primer elemento<li>Segundo elemento</ul><table><tr><td>Celda un<td>Celda dos</table><dl><dt>Plazo<dd>Definición del plazo</dl>');
    expect(prepared.documents[0].segments.map((segment) => segment.plainText)).toEqual(['First item', 'Second item', 'Cell one', 'Cell two', 'Term', 'Definition of the term']);
  });

  it('uses the sentence when the engine keeps each element\'s words inside it, else finds the element\'s words in the untagged sentence, else joins the stretches', async () => {
    const texts = [
      '<p>Read <b>the book</b> today.</p>',
      '<p>I like the red <b>sofa</b>.</p>',
      '<p>The <b>new</b> house is <i>very</i> nice.</p>',
      '<p>He does not <i>like</i> cats.</p>',
      '<p>I saw the <b>big</b> <i>red</i> car.</p>',
    ];
    const { translations } = await translate(texts);
    // Apertium gives "Me gusta el sofá <b>rojo</b>", "La <b>casa</b> nueva es <i>muy</i> bonita",
    // "no Le gustan <i></i> los gatos" and "Vi el <b>coche</b> <i>rojo</i> grande" for the sentences as they are.
    expect(translations).toEqual([
      '<p>Leído <b>el libro</b> hoy.</p>',
      '<p>Me gusta el <b>sofá</b> rojo.</p>',
      '<p>La casa <b>nueva</b> es <i>muy</i> buena.</p>',
      '<p>Él no <i>como</i> gatos.</p>',
      // Found in "Vi el coche rojo grande", the elements would swap places: markup keeps its order.
      '<p>Vi <b>grande</b> <i>rojo</i> automovilístico.</p>',
    ]);
  });

  it('translates text attributes, counts their words, and keeps them under translate="no" or when asked to', async () => {
    const html = [
      '<p title="Good morning" translate="no">Hello</p>',
      '<div translate="no"><img src="a.png" alt="Red car"></div>',
      '<img src=a.png alt=Red&#32;car>',
      "<input type=SUBMIT value='Send now' placeholder=\"Your name\" aria-label=\"The house\">",
      '<input type="text" value="The house"><span aria-description="The big house">x</span>',
    ].join('\n');
    const { translations, prepared } = await translate([html]);
    expect(translations[0]).toBe(
      [
        '<p title="Good morning" translate="no">Hello</p>',
        '<div translate="no"><img src="a.png" alt="Red car"></div>',
        '<img src=a.png alt=Coche&#32;rojo>',
        "<input type=SUBMIT value='Envía ahora' placeholder=\"Vuestro nombre\" aria-label=\"La casa\">",
        '<input type="text" value="The house"><span aria-description="La casa grande">x</span>',
      ].join('\n'),
    );
    expect(prepared.words).toBe(2 + 2 + 2 + 2 + 3 + 1);
    const off = await translate([html], { htmlAttributes: false });
    expect(off.translations[0]).toBe(html.replace('>x</span>', '>x</span>'));
    expect(off.prepared.words).toBe(1);
  });

  it('writes translated attribute values escaped for their quotes', async () => {
    const html = `<img alt="The &quot;red&quot; car"><img alt='The "red" car & the house'><img alt=The&#32;house>`;
    const [translation] = (await translate([html])).translations;
    expect(translation).toBe(`<img alt="El &quot;coche&quot; rojo"><img alt='El "coche" rojo &amp; la casa'><img alt=La&#32;casa>`);
  });

  it('marks the translation with the target language where the page names the source', async () => {
    const html = '<html lang="en-GB"><body><p lang=EN>Good morning</p><p xml:lang=\'en\'>Thank you</p><p lang="de">Guten Morgen</p><p lang="en" translate="no">Thanks</p></body></html>';
    const [translation] = (await translate([html])).translations;
    expect(translation).toBe('<html lang="es"><body><p lang=es>Buenos días</p><p xml:lang=\'es\'>Gracias</p><p lang="de">Guten Morgen</p><p lang="en" translate="no">Thanks</p></body></html>');
  });

  const pages = existsSync(CORPUS) ? readdirSync(CORPUS).filter((name) => name.endsWith('.html')).sort() : [];

  it(`keeps every byte of markup of ${pages.length} real-world pages and translates their text`, async () => {
    expect(pages.length).toBeGreaterThanOrEqual(40);
    const texts = pages.map((name) => readFileSync(join(CORPUS, name), 'utf8'));
    const { translations } = await translate(texts);
    const report = pages.flatMap((name, index) => {
      const input = texts[index];
      const output = translations[index];
      const problems = differences(input, output);
      for (const kept of input.match(PROTECTED) ?? []) if (!output.includes(kept)) problems.push(`protected element changed: ${kept.slice(0, 60)}`);
      const spanish = (text: string) => text.replace(/<[^>]*>/g, ' ').match(SPANISH)?.length ?? 0;
      if (output === input || spanish(output) <= spanish(input)) problems.push('text was not translated');
      return problems.map((problem) => `${name}: ${problem}`);
    });
    expect(report).toEqual([]);
  }, 60_000);
});
