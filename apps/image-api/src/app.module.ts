import { DynamicModule, Module } from '@nestjs/common';
import { DatabaseModule, imageDomain } from '@platform/database';
import { ImageConversionModule } from '@platform/image-conversion';
import { ImageTokensModule } from '@platform/image-tokens';
import { QueueModule } from '@platform/queue';
import { HealthModule, RedisModule } from '@platform/service-kit';
import { StorageModule } from '@platform/storage';
import { AccessTokenModule } from './access-token/access-token.module';
import { ImageApiConfig } from './config/image-api.config';
import { ConvertModule } from './convert/convert.module';
import { InfoModule } from './info/info.module';

@Module({})
export class AppModule {
  static forRoot(config: ImageApiConfig): DynamicModule {
    return {
      module: AppModule,
      // Global so that every feature module can inject the validated config.
      global: true,
      imports: [
        HealthModule,
        RedisModule.forRoot(config.REDIS_URL, config.REDIS_COMMAND_TIMEOUT_MS),
        DatabaseModule.forRoot(config, imageDomain),
        StorageModule.forRoot(config),
        QueueModule.forRoot({ redisUrl: config.REDIS_URL, commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS }),
        ImageTokensModule.forRoot(config),
        ImageConversionModule.forRoot(config),
        InfoModule,
        AccessTokenModule,
        ConvertModule,
      ],
      providers: [{ provide: ImageApiConfig, useValue: config }],
      exports: [ImageApiConfig],
    };
  }
}
