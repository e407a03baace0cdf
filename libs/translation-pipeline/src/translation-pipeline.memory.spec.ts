import { loadConfig } from '@platform/service-kit';
import { rejection } from '@platform/testing';
import { EngineRouter, type EngineRequest, type LanguagePair, type TranslationEngine } from '@platform/translation-engines';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LanguageDetector } from './detection/language-detector';
import { plainTextLayout } from './formats/plain-text.format';
import { maskedSentences, maskedText } from './memory-forms';
import { PricingConfig } from './pricing/pricing.config';
import { TranslationPipeline } from './translation-pipeline';
import type { StoredTranslation, TranslationRequest } from './translation-request';

/** English into Spanish only, upper-casing the text between placeholders: what it made is plain to see. */
class UpperCaseEngine implements TranslationEngine {
  readonly name = 'upper-case';
  readonly requests: EngineRequest[] = [];

  async pairs(): Promise<LanguagePair[]> {
    return [{ source: 'en', target: 'es' }];
  }

  async translate(request: EngineRequest): Promise<string[]> {
    this.requests.push(request);
    return request.segments.map((segment) => segment.replace(/(<[^>]+>|&[#\w]+;)|[^<&]+/g, (match, markup) => markup ?? match.toUpperCase()));
  }

  get segments(): string[] {
    return this.requests.flatMap((request) => request.segments);
  }
}

const pricing = loadConfig(PricingConfig, {});

async function prepare(request: Partial<TranslationRequest> & { texts: string[] }) {
  const engine = new UpperCaseEngine();
  const pipeline = new TranslationPipeline(new EngineRouter([engine]), pricing, new LanguageDetector());
  const prepared = await pipeline.prepare({ source: 'en', target: 'es', format: 'text', tier: 'basic', ...request });
  return { engine, pipeline, prepared };
}

/** Stored translations for the prepared sentences whose masked form `answers` names. */
function lookup(masked: readonly string[], answers: Record<string, string>, origin: StoredTranslation['origin'] = 'memory') {
  return masked.map((form) => (form in answers ? { target: answers[form], origin } : undefined));
}

describe('sentences as memories see them', () => {
  it('masks variables, markup and template syntax at the edges as the engines get them, each line on its own', () => {
    expect(maskedSentences('Delete {count} files')).toEqual([{ text: 'Delete <x id="1"/> files', codes: { 1: '{count}' } }]);
    expect(maskedSentences('Click <b>Save</b> & go')).toEqual([{ text: 'Click <g id="1">Save</g> &amp; go', codes: { 1: ['<b>', '</b>'] } }]);
    // Engines never see the edges; a memory does, so that a stored translation says where they go.
    expect(maskedSentences('{{count}} files')).toEqual([{ text: '<x id="1"/> files', codes: { 1: '{{count}}' } }]);
    expect(maskedSentences('  Open\nClose the <code>x</code> file  ')).toEqual([
      { text: '  Open', codes: {} },
      { text: 'Close the <x id="1"/> file  ', codes: { 1: '<code>x</code>' } },
    ]);
  });

  it('reads an ICU message as its sentence around the choice and the choice messages, and the whole text as one unit', () => {
    const message = 'You have {count, plural, one {# file} other {# files}}';
    expect(maskedSentences(message).map((sentence) => sentence.text)).toEqual(['You have <x id="1"/>', '<x id="1"/> file', '<x id="1"/> files']);
    expect(maskedText(message)).toEqual({ text: 'You have <x id="1"/>', codes: { 1: '{count, plural, one {# file} other {# files}}' } });
    expect(maskedText('Open {name}\nClose {name}')).toEqual({ text: 'Open <x id="1"/>\nClose <x id="2"/>', codes: { 1: '{name}', 2: '{name}' } });
  });

  it('reads a text without anything to mask as the sentence by sentence reading does, without that reading', () => {
    const safe = fc.constantFrom(...'abcXYZ éüßçÆ 0123  ,;!?()"\'-–…*+=#~|^\n\r\u2028\t\u00a0\u200bé'.split(''), '. ', 'e\u0301', 'a\u00adb');
    fc.assert(
      fc.property(fc.array(safe, { maxLength: 60 }).map((parts) => parts.join('')), (text) => {
        expect(maskedText(text)).toEqual(plainTextLayout(text).masked());
      }),
      { numRuns: 500 },
    );
    const long = `${'One sentence here. '.repeat(80)}The end`;
    expect(maskedText(long)).toEqual(plainTextLayout(long).masked());
    expect(plainTextLayout(long).sentences.length).toBeGreaterThan(1);
  });

  it('gives prepared sentences the same form, with where they stand and whether they are a whole short text', async () => {
    const json = JSON.stringify({ menu: { open: 'Open {name}', 'a/b': ['Close'] }, long: 'One two three four five six seven eight nine ten eleven twelve thirteen', '@@locale': 'en' });
    const { prepared } = await prepare({ texts: [json], format: 'json' });
    expect(prepared.sentences.map(({ text, masked, path, whole }) => ({ text, masked, path, whole }))).toEqual([
      { text: 0, masked: 'Open <x id="1"/>', path: '/menu/open', whole: true },
      { text: 0, masked: 'Close', path: '/menu/a~1b/0', whole: true },
      { text: 0, masked: 'One two three four five six seven eight nine ten eleven twelve thirteen', path: '/long', whole: false },
    ]);
    const { prepared: text } = await prepare({ texts: ['Delete {count} files', 'Open\nClose'] });
    expect(text.sentences.map(({ masked, whole }) => ({ masked, whole }))).toEqual([
      { masked: maskedSentences('Delete {count} files')[0].text, whole: true },
      { masked: 'Open', whole: false },
      { masked: 'Close', whole: false },
    ]);
  });
});

describe('translating with stored translations first', () => {
  it('writes a stored translation exactly, with the source variables and markup back in place, and sends the engine the rest', async () => {
    const { engine, pipeline, prepared } = await prepare({ texts: ['Delete {count} <b>old</b> files', 'Keep them'] });
    const [first] = prepared.sentences;
    const ids = [...first.masked.matchAll(/id="(\d+)"/g)].map((match) => match[1]);
    const plan = pipeline.plan(prepared, lookup(prepared.sentences.map((s) => s.masked), { [first.masked]: `<g id="${ids[1]}">Alte</g> Dateien (<x id="${ids[0]}"/>) löschen` }));
    expect(plan.sentences[1]).toBe('engine');
    const { translations, engines } = await pipeline.run(prepared, plan);
    expect(translations).toEqual(['<b>Alte</b> Dateien ({count}) löschen', 'KEEP THEM']);
    expect(engines).toEqual(['memory', 'upper-case']);
    expect(engine.segments).toEqual(['Keep them']);
    expect(plan).toMatchObject({ words: prepared.words, origins: ['memory', 'engine'], untranslated: [[], []] });
  });

  it('sends a sentence to the engine when its stored translation lacks one of its placeholders', async () => {
    const { pipeline, prepared } = await prepare({ texts: ['Delete {count} files'] });
    const plan = pipeline.plan(prepared, lookup([prepared.sentences[0].masked], { [prepared.sentences[0].masked]: 'Dateien löschen' }));
    expect(plan.sentences).toEqual(['engine']);
    expect((await pipeline.run(prepared, plan)).translations).toEqual(['DELETE {count} FILES']);
  });

  it('lets an enforced glossary term win over a stored translation without its target, and keeps one that has it', async () => {
    const glossary = { source: 'en', target: 'es', entries: [{ term: 'sofa', translation: 'diván' }] };
    const { pipeline, prepared } = await prepare({ texts: ['The red sofa', 'A sofa'], tier: 'pro', glossary });
    const plan = pipeline.plan(prepared, lookup(prepared.sentences.map((s) => s.masked), { 'The red sofa': 'El sofá rojo', 'A sofa': 'Un diván' }));
    expect(plan.sentences).toEqual(['engine', { target: 'Un diván', origin: 'memory' }]);
    expect((await pipeline.run(prepared, plan)).translations).toEqual(['THE RED diván', 'Un diván']);
    // A hint in tier basic: the stored translation stands.
    const basic = await prepare({ texts: ['The red sofa'], glossary });
    expect(basic.pipeline.plan(basic.prepared, [{ target: 'El sofá rojo', origin: 'memory' }]).sentences).toEqual([{ target: 'El sofá rojo', origin: 'memory' }]);
  });

  it('writes a stored HTML sentence with inline elements as stored, without second opinions from the engine', async () => {
    const { engine, pipeline, prepared } = await prepare({ texts: ['<p>Hello <b>world</b>!</p>'], format: 'html' });
    expect(prepared.sentences.map((s) => s.whole)).toEqual([false]);
    const plan = pipeline.plan(prepared, [{ target: '<g id="1">Hola</g> mundo!', origin: 'catalog' }]);
    expect((await pipeline.run(prepared, plan)).translations).toEqual(['<p><b>Hola</b> mundo!</p>']);
    expect(engine.requests).toEqual([]);
    expect(plan.origins).toEqual(['catalog']);
  });
});

describe('missing: keep', () => {
  it('refuses a pair without an engine unless asked to keep what no memory translates', async () => {
    expect(await rejection(prepare({ texts: ['Open'], target: 'de' }))).toMatchObject({ message: expect.stringContaining('target language de is not available') });
    expect(await rejection(prepare({ texts: ['Open'], target: 'xx', missing: 'keep' }))).toMatchObject({ message: expect.stringContaining('not one of the 24') });
  });

  it('translates what is stored, keeps the rest as sent, lists where, and bills only what was translated', async () => {
    const json = '{"menu":{"open":"Open the file","close":"Close it"},"n":1}';
    const { engine, pipeline, prepared } = await prepare({ texts: [json, '"Save your work now"'], target: 'de', format: 'json', missing: 'keep' });
    expect(prepared.engineAvailable).toEqual([false, false]);
    const plan = pipeline.plan(prepared, lookup(prepared.sentences.map((s) => s.masked), { 'Open the file': 'Datei öffnen' }));
    expect(plan).toMatchObject({ sentences: [{ target: 'Datei öffnen', origin: 'memory' }, 'keep', 'keep'], words: 3, wordsPerText: [3, 0], origins: ['memory', 'none'] });
    expect(plan.untranslated).toEqual([['/menu/close'], ['']]);
    const { translations, engines } = await pipeline.run(prepared, plan);
    expect(translations).toEqual(['{"menu":{"open":"Datei öffnen","close":"Close it"},"n":1}', '"Save your work now"']);
    expect(engines).toEqual(['memory']);
    expect(engine.requests).toEqual([]);
  });

  it('keeps a sentence decided as kept even where an engine does the pair', async () => {
    const { pipeline, prepared } = await prepare({ texts: ['Open', 'Close'], missing: 'keep' });
    const plan = pipeline.plan(prepared, ['keep', undefined]);
    expect(plan).toMatchObject({ sentences: ['keep', 'engine'], words: 1, untranslated: [[''], []] });
    expect((await pipeline.run(prepared, plan)).translations).toEqual(['Open', 'CLOSE']);
  });
});
