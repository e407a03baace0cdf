import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@platform/auth';
import { dataSourceOptions, imageDomain, translationDomain } from '@platform/database';
import { ImageTokensModule } from '@platform/image-tokens';
import { MetricsModule } from '@platform/service-kit';
import { ConsoleConfig } from '../config/console.config';
import { ConsoleDomainModule } from '../console-domain.module';
import { IMAGE_DATA_SOURCE } from '../images/images.module';

/**
 * What the console's operator commands need: the translation database, accounts, users and
 * invitations, and with IMAGE_DATABASE_URL the image subscriptions; no HTTP.
 */
@Module({})
export class AdminModule {
  static forRoot(config: ConsoleConfig): DynamicModule {
    return {
      module: AdminModule,
      imports: [
        // An operator at a terminal wants the error at once, not the server's patient retries.
        TypeOrmModule.forRoot({ ...dataSourceOptions(config.DATABASE_URL, translationDomain, 1), autoLoadEntities: true, retryAttempts: 1 }),
        AuthModule.forRoot({ maxKeysPerAccount: config.MAX_KEYS_PER_ACCOUNT }, { apiKeyGuard: false }),
        ConsoleDomainModule.forRoot(config),
        MetricsModule,
        ...(config.IMAGE_DATABASE_URL
          ? [
              TypeOrmModule.forRoot({ ...dataSourceOptions(config.IMAGE_DATABASE_URL, imageDomain, 1), name: IMAGE_DATA_SOURCE, autoLoadEntities: true, retryAttempts: 1 }),
              ImageTokensModule.forRoot(config, { dataSource: IMAGE_DATA_SOURCE }),
            ]
          : []),
      ],
    };
  }
}
