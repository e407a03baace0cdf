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
}
