import { Injectable } from '@nestjs/common';
import { Account, ApiKeyService, type IssuedApiKey } from '@platform/auth';
import { ApiError } from '@platform/errors';
import { DataSource } from 'typeorm';
import type { ConsoleUser } from '../users/console-user.entity';
import { hashPassword } from '../users/password-hash';
import { UsersService } from '../users/users.service';

/**
 * Self sign-up (CONSOLE_SIGNUP=true): a new account in sandbox state, its first user as owner and
 * a sandbox key. The account and its owner are created together; production access is asked for
 * later and granted by an operator.
 */
@Injectable()
export class SignUpService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly keys: ApiKeyService,
  ) {}

  async signUp(accountName: string, email: string, password: string): Promise<{ owner: ConsoleUser; key: IssuedApiKey }> {
    const passwordHash = await hashPassword(password);
    const owner = await this.dataSource.transaction(async (manager) => {
      const name = accountName.trim();
      if (await manager.existsBy(Account, { name })) throw ApiError.invalidParameter(`account_name: an account named "${name}" exists already; choose another name`);
      const account = await manager.save(manager.create(Account, { name, activatedAt: null }));
      return this.users.create(manager, { accountId: account.id, email, role: 'owner', passwordHash });
    });
    return { owner, key: await this.keys.create(owner.accountId, { sandbox: true, name: 'first sandbox key' }) };
  }
}
