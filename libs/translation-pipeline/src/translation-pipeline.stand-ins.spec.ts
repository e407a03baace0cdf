import { loadConfig } from '@platform/service-kit';
import { startDeeplStandIn, startLibreTranslateStandIn, type StandIn } from '@platform/testing';
import { DeeplEngine, EngineConfig, EngineRouter, LibreTranslateEngine, type TranslationEngine } from '@platform/translation-engines';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LanguageDetector } from './detection/language-detector';
import { PricingConfig } from './pricing/pricing.config';
import { TranslationPipeline } from './translation-pipeline';

const glossary = {
  source: 'en',
  target: 'de',
  entries: [
    { term: 'cat', translation: 'Kater' },
    { term: 'sofa', translation: 'Couch' },
    { term: 'world', translation: 'Erde' },
  ],
};

const engines: [string, () => Promise<StandIn>, (url: string) => TranslationEngine][] = [
  ['DeepL', () => startDeeplStandIn({ authKey: 'stand-in:fx' }), (url) => new DeeplEngine(loadConfig(EngineConfig, { TRANSLATION_ENGINE: 'deepl', DEEPL_API_KEY: 'stand-in:fx', DEEPL_SERVER_URL: url }))],
  ['LibreTranslate', () => startLibreTranslateStandIn(), (url) => new LibreTranslateEngine(loadConfig(EngineConfig, { TRANSLATION_ENGINE: 'libretranslate', LIBRETRANSLATE_URL: url }))],
];

describe.each(engines)('TranslationPipeline with the %s stand-in', (_, startStandIn, engineAt) => {
  let standIn: StandIn;
  let pipeline: TranslationPipeline;

  beforeAll(async () => {
    standIn = await startStandIn();
    pipeline = new TranslationPipeline(new EngineRouter([engineAt(standIn.url)]), loadConfig(PricingConfig, {}), new LanguageDetector());
  });
  afterAll(() => standIn.stop());

  it('replaces the engine rendering of each glossary term in tier pro, in text and inside inline markup', async () => {
    const prepared = await pipeline.prepare({
      texts: ['The cat is sleeping on the sofa.', '<p>Hello <b>world</b></p>'],
      source: 'en',
      target: 'de',
      format: 'html',
      tier: 'pro',
      glossary,
    });
    expect((await pipeline.run(prepared)).translations).toEqual(['Die Kater schläft on the Couch.', '<p>Hallo <b>Erde</b></p>']);
  });
});
