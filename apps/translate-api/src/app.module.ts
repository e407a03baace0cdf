import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { DatabaseModule, translationDomain } from '@platform/database';
import { QuotaModule, RateLimitModule } from '@platform/quota';
import { HealthModule, RedisModule } from '@platform/service-kit';
import { EnginesModule } from '@platform/translation-engines';
import { TranslationPipelineModule } from '@platform/translation-pipeline';
import { BatchesApiModule } from './batches/batches-api.module';
import { CompatModule } from './compat/compat.module';
import { TranslateApiConfig } from './config/translate-api.config';
import { GlossariesApiModule } from './glossaries/glossaries-api.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { KeysModule } from './keys/keys.module';
import { LanguagesModule } from './languages/languages.module';
import { MemoriesApiModule } from './memories/memories-api.module';
import { ReviewApiModule } from './review/review-api.module';
import { StyleProfilesApiModule } from './style-profiles/style-profiles-api.module';
import { TranslateModule } from './translate/translate.module';
import { UsageModule } from './usage/usage.module';
import { WebhooksApiModule } from './webhooks/webhooks-api.module';

@Module({})
export class AppModule {
  static forRoot(config: TranslateApiConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        HealthModule,
        RedisModule.forRoot(config.REDIS_URL, config.REDIS_COMMAND_TIMEOUT_MS),
        DatabaseModule.forRoot(config, translationDomain),
        AuthModule.forRoot({ maxKeysPerAccount: config.MAX_KEYS_PER_ACCOUNT }),
        KeysModule,
        QuotaModule.forRoot({ sandboxMonthlyWords: config.SANDBOX_MONTHLY_WORDS }),
        RateLimitModule.forRoot({ defaultPerMinute: config.RATE_LIMIT_PER_MINUTE }),
        UsageModule,
        EnginesModule.forRoot(config),
        TranslationPipelineModule.forRoot(config),
        TranslateModule,
        BatchesApiModule,
        IdempotencyModule.forRoot({ ttlSeconds: config.IDEMPOTENCY_TTL_SECONDS }),
        GlossariesApiModule,
        MemoriesApiModule,
        StyleProfilesApiModule,
        LanguagesModule,
        WebhooksApiModule.forRoot(config),
        ReviewApiModule.forRoot({ leaseSeconds: config.REVIEW_LEASE_SECONDS }),
        CompatModule.forRoot(config.COMPAT_APIS),
      ],
      providers: [{ provide: TranslateApiConfig, useValue: config }],
    };
  }
}
