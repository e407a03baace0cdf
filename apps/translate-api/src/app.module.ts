import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { DatabaseModule, translationDomain } from '@platform/database';
import { QuotaModule, RateLimitModule } from '@platform/quota';
import { HealthModule, RedisModule } from '@platform/service-kit';
import { TranslateApiConfig } from './config/translate-api.config';
import { KeysModule } from './keys/keys.module';
import { UsageModule } from './usage/usage.module';

@Module({})
export class AppModule {
  static forRoot(config: TranslateApiConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        HealthModule,
        RedisModule.forRoot(config.REDIS_URL),
        DatabaseModule.forRoot(config.DATABASE_URL, translationDomain, config.DATABASE_POOL_SIZE),
        AuthModule,
        KeysModule,
        QuotaModule.forRoot({ sandboxMonthlyWords: config.SANDBOX_MONTHLY_WORDS }),
        RateLimitModule.forRoot({ defaultPerMinute: config.RATE_LIMIT_PER_MINUTE }),
        UsageModule,
      ],
      providers: [{ provide: TranslateApiConfig, useValue: config }],
    };
  }
}
