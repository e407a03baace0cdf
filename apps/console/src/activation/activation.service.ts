import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Account, AccountService, assertSignupComplete, signupStateOf, type SignupState } from '@platform/auth';
import { ApiError } from '@platform/errors';
import { Repository } from 'typeorm';
import { ActivationRequest } from './activation-request.entity';

/** sandbox: sandbox keys only; pending: production access requested; active: live keys allowed. */
export type ActivationState = 'sandbox' | 'pending' | 'active';

/** How the console shows an account. */
export interface AccountView {
  id: string;
  name: string;
  activation: ActivationState;
  signup: SignupState;
}

export interface PendingActivation {
  account: Account;
  request: ActivationRequest;
}

/**
 * Production access: a sandbox account asks (company, VAT id, intended use), an operator
 * activates it with `admin account:activate`, and only then may it hold live keys (the rule
 * itself lives with the keys, in the auth lib).
 */
@Injectable()
export class ActivationService {
  constructor(
    @InjectRepository(ActivationRequest) private readonly requests: Repository<ActivationRequest>,
    private readonly accounts: AccountService,
  ) {}

  async account(accountId: string): Promise<Account> {
    const account = await this.accounts.findById(accountId);
    if (!account) throw ApiError.notFound(`Account ${accountId} not found`);
    return account;
  }

  async state(account: Account): Promise<ActivationState> {
    if (account.activatedAt) return 'active';
    return (await this.requests.existsBy({ accountId: account.id })) ? 'pending' : 'sandbox';
  }

  async view(accountId: string): Promise<AccountView> {
    const account = await this.account(accountId);
    return { id: account.id, name: account.name, activation: await this.state(account), signup: signupStateOf(account) };
  }

  /** Asking again replaces the details of the earlier request; a sign-up that is not complete cannot ask yet (403). */
  async request(accountId: string, userId: string, details: Pick<ActivationRequest, 'company' | 'vatId' | 'intendedUse'>): Promise<ActivationRequest> {
    const account = await this.account(accountId);
    assertSignupComplete(account);
    if (account.activatedAt) throw ApiError.invalidParameter('This account is already activated for production use');
    const request = this.requests.create({ accountId, ...details, requestedBy: userId, requestedAt: new Date() });
    await this.requests.upsert(request, ['accountId']);
    return request;
  }

  async pending(): Promise<PendingActivation[]> {
    const requests = await this.requests
      .createQueryBuilder('r')
      .innerJoin(Account, 'a', 'a.id = r.accountId')
      .where('a.activatedAt IS NULL')
      .orderBy('r.requestedAt', 'ASC')
      .getMany();
    return Promise.all(requests.map(async (request) => ({ request, account: await this.account(request.accountId) })));
  }
}
