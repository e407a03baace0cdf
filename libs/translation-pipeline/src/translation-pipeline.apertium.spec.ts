import { existsSync } from 'node:fs';
import { loadConfig } from '@platform/service-kit';
import { ApertiumEngine, EngineRouter } from '@platform/translation-engines';
import { afterAll, describe, expect, it } from 'vitest';
import { LanguageDetector } from './detection/language-detector';
import type { GlossaryTerms } from './glossary/glossary-terms';
import { PricingConfig } from './pricing/pricing.config';
import { TranslationPipeline } from './translation-pipeline';

const MODES_DIR = '/usr/share/apertium/modes';
const installed = existsSync(MODES_DIR);
if (!installed) console.warn(`Skipping the Apertium pipeline tests: ${MODES_DIR} is missing (install apertium and apertium-eng-spa)`);

const tagsOf = (html: string) => html.match(/<[^>]+>/g);
const glossary = (entries: Record<string, string>): GlossaryTerms => ({
  source: 'en',
  target: 'es',
  entries: Object.entries(entries).map(([term, translation]) => ({ term, translation })),
});

describe.skipIf(!installed)('TranslationPipeline with Apertium', () => {
  const engine = installed ? new ApertiumEngine({ modesDir: MODES_DIR }) : undefined!;
  const pipeline = new TranslationPipeline(new EngineRouter([engine]), loadConfig(PricingConfig, {}), new LanguageDetector());
  afterAll(() => engine?.close());

  it('detects English and enforces the glossary term in tier pro, where the engine puts the word', async () => {
    const prepared = await pipeline.prepare({ texts: ['The cat is sleeping on the red sofa.'], target: 'es', format: 'text', tier: 'pro', glossary: glossary({ sofa: 'diván' }) });
    expect(prepared).toMatchObject({ detectedSource: 'en', words: 8, costCents: 1 });
    expect((await pipeline.run(prepared)).translations).toEqual(['El gato está durmiendo en el diván rojo.']);
  });

  it('closes the gap Apertium leaves where it drops a word, and keeps two spaces between sentences where the source has them', async () => {
    const texts = ['To use this tool, you must specify the option.', 'Read the book.  To use this tool, you must specify the option.'];
    const prepared = await pipeline.prepare({ texts, source: 'en', target: 'es', format: 'text', tier: 'basic' });
    expect((await pipeline.run(prepared)).translations).toEqual([
      'Para utilizar esta herramienta, tienes que especificar la opción.',
      'Leído el libro.  Para utilizar esta herramienta, tienes que especificar la opción.',
    ]);
  });

  describe('glossary terms in tier pro', () => {
    const translate = async (texts: string[], entries: Record<string, string>, format: 'text' | 'html' = 'text', tier: 'basic' | 'pro' = 'pro') => {
      const prepared = await pipeline.prepare({ texts, source: 'en', target: 'es', format, tier, glossary: glossary(entries) });
      return (await pipeline.run(prepared)).translations;
    };

    it('capitalises the target term where the engine starts a sentence with it', async () => {
      expect(await translate(['Sofa for sale.'], { sofa: 'diván' })).toEqual(['Diván para venta.']);
    });

    it('replaces two terms of one sentence, and a multi-word term the engine renders as one word', async () => {
      expect(await translate(['Cat on a sofa.', 'The cat is sleeping on the red sofa.'], { cat: 'felino', sofa: 'diván' })).toEqual([
        'Felino en un diván.',
        'El felino está durmiendo en el diván rojo.',
      ]);
      expect(await translate(['The new washing machine is broken.'], { 'washing machine': 'máquina de lavar' })).toEqual(['La máquina de lavar nueva está rota.']);
    });

    it('replaces a term inside inline markup', async () => {
      expect(await translate(['<p>The cat is sleeping on the <b>sofa</b>.</p>'], { sofa: 'diván' }, 'html')).toEqual(['<p>El gato está durmiendo en el <b>diván</b>.</p>']);
    });

    it('protects a term as a placeholder where the engine inflected it, so the term is still exact', async () => {
      // Alone "red" is "Rojo"; before "cars" the engine writes "rojos", which is not looked for.
      expect(await translate(['The red cars are fast.'], { red: 'carmesí' })).toEqual(['Los carmesí coches son rápidamente.']);
    });

    it('leaves the engine its own word in tier basic', async () => {
      expect(await translate(['The cat is sleeping on the red sofa.'], { sofa: 'diván' }, 'text', 'basic')).toEqual(['El gato está durmiendo en el sofá rojo.']);
    });
  });

  it('keeps the markup of an HTML text byte for byte when attributes are not translated', async () => {
    const html = '<p>Hello <b>world</b>, <a href="/x" title="Home">click here</a>.</p><script>var a="hello";</script>';
    const prepared = await pipeline.prepare({ texts: [html], source: 'en', target: 'es', format: 'html', tier: 'basic', htmlAttributes: false });
    const [translation] = (await pipeline.run(prepared)).translations;
    expect(tagsOf(translation)).toEqual(tagsOf(html));
    expect(translation).toMatch(/^<p>Hola <b>[^<]+<\/b>, <a href="\/x" title="Home">[^<]+<\/a>\.<\/p><script>var a="hello";<\/script>$/);
  });

  it('keeps JSON keys, numbers and variables', async () => {
    const json = '{"title":"Good morning","count":3,"nested":{"items":["Thank you","{name} has arrived"]}}';
    const prepared = await pipeline.prepare({ texts: [json], source: 'en', target: 'es', format: 'json', tier: 'basic' });
    const result = JSON.parse((await pipeline.run(prepared)).translations[0]);
    expect(result).toMatchObject({ count: 3, nested: { items: [expect.any(String), expect.stringMatching(/^\{name\} /)] } });
    expect(Object.keys(result)).toEqual(['title', 'count', 'nested']);
    expect(result.title).not.toBe('Good morning');
  });
});
