import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Account, AccountService, ApiKeyService, signupStateOf, type IssuedApiKey } from '@platform/auth';
import { ApiError } from '@platform/errors';
import { REDIS } from '@platform/service-kit';
import type { Redis } from 'ioredis';
import { IsNull, Repository } from 'typeorm';
import { ConsoleConfig } from '../config/console.config';
import { linkRefusal, type LinkRefusals } from '../links/link-refusal';
import { consoleLink, hashLinkToken, newLinkToken } from '../links/one-time-link';
import { Mailer } from '../mail/mailer.service';
import { admitOrRefuse, DAY_MS } from '../rate-limits/refusing-windows';
import { EmailVerification } from './email-verification.entity';
import { verificationMail } from './verification-mail';

const VERIFICATION_PREFIX = 'vfy_';

const VERIFICATION_REFUSALS: LinkRefusals = {
  unknown: 'This confirmation link is not valid: open the newest link exactly as it was mailed, or sign in and send a new one',
  used: 'This confirmation link was used already: the address is confirmed. Sign in to continue',
  expired: 'This confirmation link has expired: sign in and send a new one',
};

/** What a confirmation did: the account as it is now, and its first sandbox key when the sign-up became complete with it. */
export interface Verified {
  account: Account;
  firstKey: IssuedApiKey | null;
}

/**
 * Confirmation of a signed-up account's email address. The link
 * (`CONSOLE_PUBLIC_URL/console/verify-email#token=vfy_...`) is made like an invitation's: 256
 * random bits, stored as SHA-256, expiring after CONSOLE_VERIFICATION_TTL_SECONDS, used once; a
 * new one replaces the account's earlier ones. It goes by mail only, never into an answer:
 * confirming proves the address only if the link was nowhere else. Without SMTP_URL (which
 * production refuses, see ConsoleConfig) it goes to the log instead, for development.
 */
@Injectable()
export class EmailVerificationService {
  private readonly logger = new Logger(EmailVerificationService.name);

  constructor(
    @InjectRepository(EmailVerification) private readonly verifications: Repository<EmailVerification>,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly accounts: AccountService,
    private readonly keys: ApiKeyService,
    private readonly mailer: Mailer,
    private readonly config: ConsoleConfig,
  ) {}

  /**
   * A new link for the account, mailed to `email`; whether it was mailed. At most
   * CONSOLE_VERIFICATION_MAILS_PER_DAY links per account and day (429 beyond), so that nobody can
   * bury an address under confirmation mail.
   */
  async send(account: Account, email: string): Promise<boolean> {
    const perDay = this.config.CONSOLE_VERIFICATION_MAILS_PER_DAY;
    await admitOrRefuse(this.redis, [
      {
        key: `console-verification-mails:${account.id}`,
        limit: perDay,
        windowMs: DAY_MS,
        refusal: (wait) => `The confirmation mail was sent ${perDay} time${perDay === 1 ? '' : 's'} within a day, the most it may be; try again in ${wait}`,
      },
    ]);
    const token = newLinkToken(VERIFICATION_PREFIX);
    const expiresAt = new Date(Date.now() + this.config.CONSOLE_VERIFICATION_TTL_SECONDS * 1000);
    await this.verifications.manager.transaction(async (manager) => {
      await manager.delete(EmailVerification, { accountId: account.id, usedAt: IsNull() });
      await manager.insert(EmailVerification, { tokenHash: hashLinkToken(token), accountId: account.id, expiresAt, usedAt: null });
    });
    const link = consoleLink(this.config.CONSOLE_PUBLIC_URL, 'verify-email', token);
    if (!this.mailer.enabled) {
      this.logger.warn({ msg: 'confirmation link not mailed, as there is no SMTP_URL; it is logged for development only', email, link });
      return false;
    }
    return (await this.mailer.send(verificationMail({ email, accountName: account.name, link, expiresAt }))).sent;
  }

  /** Another link for an account still to be confirmed; 409 once it is. */
  async resend(accountId: string, email: string): Promise<boolean> {
    const account = await this.accounts.findById(accountId);
    if (!account) throw ApiError.notFound(`Account ${accountId} not found`);
    if (account.signupVerifiedAt) throw new ApiError(409, 'already_verified', 'This account’s email address is confirmed already; no new link is needed');
    return this.send(account, email);
  }

  /**
   * Uses the link once (an atomic update), and confirms its account in the same transaction.
   * Unless sign-ups wait for an operator (CONSOLE_SIGNUP_APPROVAL=manual), that completes the
   * sign-up, and the account gets its first sandbox key. An unknown, used or expired link
   * answers 404, 409 or 410 saying which.
   */
  async verify(token: string): Promise<Verified> {
    const tokenHash = hashLinkToken(token);
    const { account, completedNow } = await this.verifications.manager.transaction(async (manager) => {
      const [rows] = await manager.query(
        `UPDATE translation.console_email_verifications SET used_at = now()
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
         RETURNING account_id`,
        [tokenHash],
      );
      const used = (rows as { account_id: string }[])[0];
      if (!used) throw await this.unusable(tokenHash);
      const now = new Date();
      const approved = this.config.CONSOLE_SIGNUP_APPROVAL === 'automatic' ? now : null;
      const confirmed = await manager.update(Account, { id: used.account_id, signupVerifiedAt: IsNull() }, { signupVerifiedAt: now, signupApprovedAt: approved });
      const account = await manager.findOneByOrFail(Account, { id: used.account_id });
      return { account, completedNow: confirmed.affected === 1 && signupStateOf(account) === 'complete' };
    });
    return { account, firstKey: completedNow ? await this.keys.create(account.id, { sandbox: true, name: 'first sandbox key' }) : null };
  }

  private async unusable(tokenHash: string): Promise<ApiError> {
    return linkRefusal(await this.verifications.findOneBy({ tokenHash }), VERIFICATION_REFUSALS);
  }
}
