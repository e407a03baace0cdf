import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@platform/auth';
import { dataSourceOptions, translationDomain } from '@platform/database';
import { ReviewersModule } from '@platform/review';
import { TranslateApiConfig } from '../config/translate-api.config';

/** What operator commands need: the translation database and account/key and reviewer services, no HTTP. */
@Module({})
export class AdminModule {
  static forRoot(config: TranslateApiConfig): DynamicModule {
    return {
      module: AdminModule,
      imports: [
        // An operator at a terminal wants the error at once, not the server's patient retries.
        TypeOrmModule.forRoot({ ...dataSourceOptions(config.DATABASE_URL, translationDomain, 1), autoLoadEntities: true, retryAttempts: 1 }),
        AuthModule.forRoot({ maxKeysPerAccount: config.MAX_KEYS_PER_ACCOUNT }),
        ReviewersModule,
      ],
    };
  }
}
