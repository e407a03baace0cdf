import { existsSync } from 'node:fs';
import { loadConfig } from '@platform/service-kit';
import { ApertiumEngine, EngineRouter } from '@platform/translation-engines';
import { afterAll, describe, expect, it } from 'vitest';
import { LanguageDetector } from './detection/language-detector';
import { PricingConfig } from './pricing/pricing.config';
import { TranslationPipeline } from './translation-pipeline';

const MODES_DIR = '/usr/share/apertium/modes';
const installed = existsSync(MODES_DIR);
if (!installed) console.warn(`Skipping the Apertium pipeline tests: ${MODES_DIR} is missing (install apertium and apertium-eng-spa)`);

const tagsOf = (html: string) => html.match(/<[^>]+>/g);

describe.skipIf(!installed)('TranslationPipeline with Apertium', () => {
  const engine = installed ? new ApertiumEngine({ modesDir: MODES_DIR }) : undefined!;
  const pipeline = new TranslationPipeline(new EngineRouter([engine]), loadConfig(PricingConfig, {}), new LanguageDetector());
  afterAll(() => engine?.close());

  it('detects English and enforces the glossary term in tier pro', async () => {
    const prepared = await pipeline.prepare({
      texts: ['The cat is sleeping on the red sofa.'],
      target: 'es',
      format: 'text',
      tier: 'pro',
      glossary: { source: 'en', target: 'es', entries: [{ term: 'sofa', translation: 'diván' }] },
    });
    expect(prepared).toMatchObject({ detectedSource: 'en', words: 8, costCents: 1 });
    const { translations } = await pipeline.run(prepared);
    expect(translations[0]).toContain('diván');
    expect(translations[0]).toMatch(/gato/i);
  });

  it('keeps the markup of an HTML text byte for byte', async () => {
    const html = '<p>Hello <b>world</b>, <a href="/x" title="Home">click here</a>.</p><script>var a="hello";</script>';
    const prepared = await pipeline.prepare({ texts: [html], source: 'en', target: 'es', format: 'html', tier: 'basic' });
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
