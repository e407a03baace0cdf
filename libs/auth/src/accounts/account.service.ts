import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { AccountLimits } from '@platform/contracts';
import { Repository } from 'typeorm';
import { Account } from './account.entity';

/** Accounts are created by operators (admin CLI); customers never create or rename them. */
@Injectable()
export class AccountService {
  constructor(@InjectRepository(Account) private readonly accounts: Repository<Account>) {}

  create(name: string): Promise<Account> {
    return this.accounts.save(this.accounts.create({ name }));
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
