import { DynamicModule, Global, Module } from '@nestjs/common';
import { ApertiumEngine } from './apertium/apertium.engine';
import { DeeplEngine } from './deepl/deepl.engine';
import type { EngineConfig } from './engine.config';
import { LibreTranslateEngine } from './libretranslate/libretranslate.engine';
import { ENGINE, type TranslationEngine } from './translation-engine';

/** The engine TRANSLATION_ENGINE names. */
export function createEngine(config: EngineConfig): TranslationEngine {
  switch (config.TRANSLATION_ENGINE) {
    case 'deepl':
      return new DeeplEngine(config);
    case 'libretranslate':
      return new LibreTranslateEngine(config);
    case 'apertium':
      return new ApertiumEngine({
        modesDir: config.APERTIUM_MODES_DIR,
        pivotLanguage: config.APERTIUM_PIVOT_LANGUAGE,
        pipelinesPerMode: config.APERTIUM_PIPELINES_PER_MODE,
        timeoutMs: config.APERTIUM_TIMEOUT_MS,
      });
  }
}

/**
 * Provides the configured engine under `ENGINE`, for every module of the app. Engines that hold
 * resources (Apertium's processes) release them when the app closes.
 */
@Global()
@Module({})
export class EnginesModule {
  static forRoot(config: EngineConfig): DynamicModule {
    return {
      module: EnginesModule,
      providers: [{ provide: ENGINE, useFactory: () => createEngine(config) }],
      exports: [ENGINE],
    };
  }
}
