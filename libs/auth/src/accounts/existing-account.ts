import type { INestApplicationContext } from '@nestjs/common';
import { AdminCommandError } from '@platform/service-kit';
import { isUUID } from 'class-validator';
import type { Account } from './account.entity';
import { AccountService } from './account.service';

/**
 * The account an operator's command names, by id (what account:create printed) or by name as
 * people read it. Only account:create creates accounts: a mistyped name must not open a new one.
 */
export async function existingAccount(context: INestApplicationContext, reference: string): Promise<Account> {
  const account = await context.get(AccountService).findByIdOrName(reference);
  if (account) return account;
  throw new AdminCommandError(
    isUUID(reference)
      ? `no account has the id ${reference}, nor that name`
      : `account "${reference}" does not exist; create it first with: admin account:create ${reference}`,
  );
}
