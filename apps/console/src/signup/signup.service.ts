import { Injectable } from '@nestjs/common';
import { AccountService } from '@platform/auth';
import { DataSource } from 'typeorm';
import type { ConsoleUser } from '../users/console-user.entity';
import { hashPassword } from '../users/password-hash';
import { UsersService } from '../users/users.service';
import { EmailVerificationService } from './email-verification.service';

/**
 * Self sign-up (CONSOLE_SIGNUP=true): a new account in sandbox state and its first user as
 * owner, created together. The account holds no key until the owner confirms the address
 * through the mailed link (EmailVerificationService); production access is asked for later and
 * granted by an operator.
 */
@Injectable()
export class SignUpService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: AccountService,
    private readonly users: UsersService,
    private readonly verification: EmailVerificationService,
  ) {}

  /** The owner, and whether the confirmation link was mailed. */
  async signUp(accountName: string, email: string, password: string): Promise<{ owner: ConsoleUser; mailed: boolean }> {
    const passwordHash = await hashPassword(password);
    const { account, owner } = await this.dataSource.transaction(async (manager) => {
      const account = await this.accounts.create(accountName, { activated: false, signedUp: true }, manager);
      return { account, owner: await this.users.create(manager, { accountId: account.id, email, role: 'owner', passwordHash }) };
    });
    return { owner, mailed: await this.verification.send(account, owner.email) };
  }
}
