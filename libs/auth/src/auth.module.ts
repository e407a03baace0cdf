import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Account } from './accounts/account.entity';
import { AccountService } from './accounts/account.service';
import { ApiKeyGuard } from './guards/api-key.guard';
import { ApiKey } from './keys/api-key.entity';
import { ApiKeyService } from './keys/api-key.service';

/**
 * Accounts and API keys, and the global guard that authenticates every request of the app that
 * imports this module. Needs the translation DatabaseModule (or a TypeORM root) in the app.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Account, ApiKey])],
  providers: [AccountService, ApiKeyService, { provide: APP_GUARD, useClass: ApiKeyGuard }],
  exports: [AccountService, ApiKeyService],
})
export class AuthModule {}
