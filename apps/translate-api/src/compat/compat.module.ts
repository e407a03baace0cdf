import { DynamicModule, Module, type Type } from '@nestjs/common';
import { GlossariesModule } from '@platform/glossaries';
import { LanguagesModule } from '../languages/languages.module';
import { TranslateModule } from '../translate/translate.module';
import { UsageModule } from '../usage/usage.module';
import type { CompatApi } from './compat-apis';
import { DeepLController } from './deepl/deepl.controller';
import { DeepLGlossariesController } from './deepl/deepl-glossaries.controller';
import { FormBodyParser } from './form-body';
import { LibreTranslateController } from './libretranslate/libretranslate.controller';

const CONTROLLERS: Record<CompatApi, Type<unknown>[]> = {
  deepl: [DeepLController, DeepLGlossariesController],
  libretranslate: [LibreTranslateController],
};

/**
 * DeepL's and LibreTranslate's APIs (COMPAT_APIS) over the services of /api/v1: the same
 * pipeline, keys, quotas, glossaries, idempotency and rate limits, in those vendors' shapes.
 */
@Module({})
export class CompatModule {
  static forRoot(apis: readonly CompatApi[]): DynamicModule {
    return {
      module: CompatModule,
      imports: [TranslateModule, LanguagesModule, UsageModule, GlossariesModule],
      controllers: apis.flatMap((api) => CONTROLLERS[api]),
      providers: apis.length > 0 ? [FormBodyParser] : [],
    };
  }
}
