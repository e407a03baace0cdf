import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Account } from './accounts/account.entity';
import { AccountService } from './accounts/account.service';
import { ApiKeyGuard } from './guards/api-key.guard';
import { ApiKey } from './keys/api-key.entity';
import { AUTH_OPTIONS, ApiKeyService, type AuthOptions } from './keys/api-key.service';

/**
 * Accounts and API keys, and (unless `apiKeyGuard` is false, for apps whose callers are not API
 * keys) the global guard that authenticates every request of the app that imports this module.
 * Needs the translation DatabaseModule (or a TypeORM root) in the app. Global, so that feature
 * modules use the one configured instance.
 */
@Module({})
export class AuthModule {
  static forRoot(options: AuthOptions, { apiKeyGuard = true } = {}): DynamicModule {
    const guard = apiKeyGuard ? [{ provide: APP_GUARD, useClass: ApiKeyGuard }] : [];
    return {
      module: AuthModule,
      global: true,
      imports: [TypeOrmModule.forFeature([Account, ApiKey])],
      providers: [{ provide: AUTH_OPTIONS, useValue: options }, AccountService, ApiKeyService, ...guard],
      exports: [AccountService, ApiKeyService],
    };
  }
}
