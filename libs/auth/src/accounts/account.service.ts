import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { AccountLimits } from '@platform/contracts';
import { IsNull, Repository } from 'typeorm';
import { Account } from './account.entity';

/**
 * Accounts are created by operators (admin CLI) or by console sign-up; customers never rename
 * them. An operator's account is activated at creation unless it is made for sandbox use only;
 * a signed-up account starts in sandbox and is activated by an operator on request.
 */
@Injectable()
export class AccountService {
  constructor(@InjectRepository(Account) private readonly accounts: Repository<Account>) {}

  create(name: string, { activated }: { activated: boolean }): Promise<Account> {
    return this.accounts.save(this.accounts.create({ name, activatedAt: activated ? new Date() : null }));
  }

  findById(id: string): Promise<Account | null> {
    return this.accounts.findOneBy({ id });
  }

  /** Activating twice keeps the first activation time. */
  async activate(account: Account): Promise<Account> {
    await this.accounts.update({ id: account.id, activatedAt: IsNull() }, { activatedAt: new Date() });
    return this.accounts.findOneByOrFail({ id: account.id });
  }

  findByName(name: string): Promise<Account | null> {
    return this.accounts.findOneBy({ name });
  }

  /**
   * Sets the operator's ceilings (`undefined` leaves one as it is, `null` clears it). Keys whose
   * own limits are higher keep them, but are held to the ceiling when they use them.
   */
  async setLimits(account: Account, limits: Partial<AccountLimits>): Promise<Account> {
    const changes: Partial<Account> = {};
    if (limits.monthlyWordLimit !== undefined) changes.monthlyWordLimit = limits.monthlyWordLimit;
    if (limits.rateLimitPerMinute !== undefined) changes.rateLimitPerMinute = limits.rateLimitPerMinute;
    if (Object.keys(changes).length > 0) await this.accounts.update({ id: account.id }, changes);
    return this.accounts.findOneByOrFail({ id: account.id });
  }
}
