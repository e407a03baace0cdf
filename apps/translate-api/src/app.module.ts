import { DynamicModule, Module } from '@nestjs/common';
import { DatabaseModule, translationDomain } from '@platform/database';
import { HealthModule, RedisModule } from '@platform/service-kit';
import { TranslateApiConfig } from './config/translate-api.config';

@Module({})
export class AppModule {
  static forRoot(config: TranslateApiConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        HealthModule,
        RedisModule.forRoot(config.REDIS_URL),
        DatabaseModule.forRoot(config.DATABASE_URL, translationDomain, config.DATABASE_POOL_SIZE),
      ],
      providers: [{ provide: TranslateApiConfig, useValue: config }],
    };
  }
}
