import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { TranslationErrorCode, type AccountLimits } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { isUUID } from 'class-validator';
import { EntityManager, IsNull, Not, Repository } from 'typeorm';
import { Account } from './account.entity';

/**
 * How account names are compared, and the expression of their unique index
 * (migration AccountNamesFoldEveryLetter1734440000000): compatibility forms and letter widths
 * folded (NFKC), surrounding spaces dropped, case ignored by ICU whatever the database's locale.
 * `Acme`, ` ACME ` and `ａｃｍｅ` are one name, and so are `ÉCOLE` and `école`.
 */
const nameKey = (sql: string) => `lower(btrim(normalize(${sql}, NFKC)) COLLATE "und-x-icu")`;

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

export const accountNameTaken = (name: string) =>
  ApiError.invalidParameter(`An account named "${name}" exists already (names are compared ignoring case, letter width and surrounding spaces); choose another name`);

/** email_unverified: the owner has not confirmed the address; awaiting_approval: an operator has not approved it yet; complete: keys can be held. */
export type SignupState = 'email_unverified' | 'awaiting_approval' | 'complete';

export const signupStateOf = (account: Pick<Account, 'signupVerifiedAt' | 'signupApprovedAt'>): SignupState =>
  account.signupApprovedAt ? 'complete' : account.signupVerifiedAt ? 'awaiting_approval' : 'email_unverified';

const SIGNUP_INCOMPLETE: Record<Exclude<SignupState, 'complete'>, string> = {
  email_unverified:
    "This account's sign-up is not confirmed yet: its owner opens the link mailed at sign-up (or sends a new one from the console). Until then the account holds no keys",
  awaiting_approval: "This account's sign-up waits for an operator's approval. Until then the account holds no keys",
};

/** 403 `forbidden` for an account whose sign-up is not complete, saying what it waits for. */
export function assertSignupComplete(account: Pick<Account, 'signupVerifiedAt' | 'signupApprovedAt'>): void {
  const state = signupStateOf(account);
  if (state !== 'complete') throw new ApiError(403, TranslationErrorCode.Forbidden, SIGNUP_INCOMPLETE[state]);
}

/**
 * Accounts are created by operators (admin CLI) or by console sign-up; customers never rename
 * them. An operator's account is activated at creation unless it is made for sandbox use only;
 * a signed-up account starts in sandbox and is activated by an operator on request. A signed-up
 * account holds no key until its owner confirms the email address (and, where sign-ups are
 * approved by hand, an operator approves it); an operator's account may hold keys at once.
 */
@Injectable()
export class AccountService {
  constructor(@InjectRepository(Account) private readonly accounts: Repository<Account>) {}

  /**
   * 422 when the name is taken as people read it, however close two creations come, and for a
   * name that is a UUID, since operators' commands read a UUID as an account's id.
   */
  async create(name: string, { activated, signedUp = false }: { activated: boolean; signedUp?: boolean }, manager: EntityManager = this.accounts.manager): Promise<Account> {
    if (isUUID(name.trim())) throw ApiError.invalidParameter('An account name cannot be a UUID: UUIDs name accounts by their id');
    const now = new Date();
    const cleared = signedUp ? null : now;
    try {
      return await manager.save(manager.create(Account, { name: name.trim(), activatedAt: activated ? now : null, signupVerifiedAt: cleared, signupApprovedAt: cleared }));
    } catch (error) {
      if (isUniqueViolation(error)) throw accountNameTaken(name.trim());
      throw error;
    }
  }

  findById(id: string): Promise<Account | null> {
    return this.accounts.findOneBy({ id });
  }

  /** Activating twice keeps the first activation time. */
  async activate(account: Account): Promise<Account> {
    await this.accounts.update({ id: account.id, activatedAt: IsNull() }, { activatedAt: new Date() });
    return this.accounts.findOneByOrFail({ id: account.id });
  }

  /** The account whose name reads as `name`: there is at most one. */
  findByName(name: string): Promise<Account | null> {
    return this.accounts.createQueryBuilder('account').where(`${nameKey('account.name')} = ${nameKey(':name')}`, { name }).getOne();
  }

  /** By id when `reference` is a UUID that names one, else by name: how operators' commands name an account. */
  async findByIdOrName(reference: string): Promise<Account | null> {
    return (isUUID(reference) ? await this.findById(reference) : null) ?? this.findByName(reference);
  }

  /** Clears a confirmed sign-up to hold keys; approving twice keeps the first time. Null while its owner has not confirmed the address. */
  async approveSignup(account: Account): Promise<Account | null> {
    if (!account.signupVerifiedAt) return null;
    await this.accounts.update({ id: account.id, signupApprovedAt: IsNull() }, { signupApprovedAt: new Date() });
    return this.accounts.findOneByOrFail({ id: account.id });
  }

  /** Sign-ups whose owner confirmed the address and that wait for an operator's approval, longest waiting first. */
  awaitingApproval(): Promise<Account[]> {
    return this.accounts.find({ where: { signupApprovedAt: IsNull(), signupVerifiedAt: Not(IsNull()) }, order: { signupVerifiedAt: 'ASC', id: 'ASC' } });
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
