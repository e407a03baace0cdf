import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
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

  /** The named account, created first when missing; safe when two operators race. */
  async findOrCreate(name: string): Promise<{ account: Account; created: boolean }> {
    const inserted = await this.accounts.createQueryBuilder().insert().values({ name }).orIgnore().returning('id').execute();
    return { account: await this.accounts.findOneByOrFail({ name }), created: inserted.raw.length > 0 };
  }
}
