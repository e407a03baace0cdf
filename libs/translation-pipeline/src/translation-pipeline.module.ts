import { DynamicModule, Module } from '@nestjs/common';
import { LanguageDetector } from './detection/language-detector';
import { PricingConfig } from './pricing/pricing.config';
import { TranslationPipeline } from './translation-pipeline';

/** Provides `TranslationPipeline` (and the prices, for totals across several requests) app-wide; needs the `EngineRouter` from `EnginesModule.forRoot`. */
@Module({})
export class TranslationPipelineModule {
  static forRoot(pricing: PricingConfig): DynamicModule {
    return {
      module: TranslationPipelineModule,
      global: true,
      providers: [{ provide: PricingConfig, useValue: pricing }, LanguageDetector, TranslationPipeline],
      exports: [TranslationPipeline, PricingConfig, LanguageDetector],
    };
  }
}
