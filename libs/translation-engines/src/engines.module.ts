import { DynamicModule, Global, Module } from '@nestjs/common';
import { MetricsRegistry } from '@platform/service-kit';
import { ApertiumEngine } from './apertium/apertium.engine';
import { DeeplEngine } from './deepl/deepl.engine';
import { engineNames, parseRoutes, type EngineConfig, type EngineName } from './engine.config';
import { LibreTranslateEngine } from './libretranslate/libretranslate.engine';
import { EngineRouter } from './routing/engine-router';
import type { TranslationEngine } from './translation-engine';

/** One engine by its name, set up from the config. */
export function createEngine(name: EngineName, config: EngineConfig): TranslationEngine {
  switch (name) {
    case 'deepl':
      return new DeeplEngine(config);
    case 'libretranslate':
      return new LibreTranslateEngine(config);
    case 'apertium':
      return new ApertiumEngine({
        modesDir: config.APERTIUM_MODES_DIR,
        pivotLanguage: config.APERTIUM_PIVOT_LANGUAGE,
        pipelinesPerMode: config.APERTIUM_PIPELINES_PER_MODE,
        requestsPerPipeline: config.APERTIUM_REQUESTS_PER_PIPELINE,
        timeoutMs: config.APERTIUM_TIMEOUT_MS,
        segmentsPerPipeline: config.APERTIUM_SEGMENTS_PER_PIPELINE,
        allocator: config.APERTIUM_ALLOCATOR,
      });
  }
}

/** The engines TRANSLATION_ENGINES (or TRANSLATION_ENGINE) names, routed as TRANSLATION_ROUTES says. */
export function createRouter(config: EngineConfig, metrics?: MetricsRegistry): EngineRouter {
  return new EngineRouter(
    engineNames(config).map((name) => createEngine(name, config)),
    parseRoutes(config.TRANSLATION_ROUTES),
    metrics,
  );
}

/**
 * Provides the `EngineRouter` over the configured engines, for every module of the app. Engines
 * that hold resources (Apertium's processes) release them when the app closes.
 */
@Global()
@Module({})
export class EnginesModule {
  static forRoot(config: EngineConfig): DynamicModule {
    return {
      module: EnginesModule,
      providers: [{ provide: EngineRouter, inject: [{ token: MetricsRegistry, optional: true }], useFactory: (metrics?: MetricsRegistry) => createRouter(config, metrics) }],
      exports: [EngineRouter],
    };
  }
}
