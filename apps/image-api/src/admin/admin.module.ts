import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { dataSourceOptions, imageDomain } from '@platform/database';
import { ImageTokensModule } from '@platform/image-tokens';
import { MetricsModule } from '@platform/service-kit';
import { ImageApiConfig } from '../config/image-api.config';

/** What operator commands need: the image database and the token service (which counts refusals), no HTTP. */
@Module({})
export class AdminModule {
  static forRoot(config: ImageApiConfig): DynamicModule {
    return {
      module: AdminModule,
      imports: [
        // An operator at a terminal wants the error at once, not the server's patient retries.
        TypeOrmModule.forRoot({ ...dataSourceOptions(config.DATABASE_URL, imageDomain, 1), autoLoadEntities: true, retryAttempts: 1 }),
        MetricsModule,
        ImageTokensModule.forRoot(config),
      ],
    };
  }
}
