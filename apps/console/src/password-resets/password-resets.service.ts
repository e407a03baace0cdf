import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { ConsoleConfig } from '../config/console.config';
import { linkRefusal, usableLink, type LinkRefusals } from '../links/link-refusal';
import { consoleLink, hashLinkToken, newLinkToken } from '../links/one-time-link';
import { Mailer } from '../mail/mailer.service';
import { SessionsService } from '../sessions/sessions.service';
import { SignInThrottleService } from '../sessions/sign-in-throttle.service';
import { ConsoleUser } from '../users/console-user.entity';
import { hashPassword } from '../users/password-hash';
import { UsersService } from '../users/users.service';
import { passwordResetMail } from './password-reset-mail';
import { PasswordReset } from './password-reset.entity';

const RESET_PREFIX = 'pwr_';

export const RESET_REFUSALS: LinkRefusals = {
  unknown: 'This password reset link is not valid: it was mistyped, or a newer link replaced it. Open the newest link exactly as it was mailed, or ask for a new one',
  used: 'This password reset link was used already. Sign in with the new password, or ask for a new link',
  expired: 'This password reset link has expired. Ask for a new one',
};

/** A reset link that can still be used: for whom and until when. */
export interface OpenReset {
  email: string;
  expiresAt: Date;
}

/**
 * Password reset by mail. A link (`CONSOLE_PUBLIC_URL/console/reset-password#token=pwr_...`) is
 * made like an invitation's: 256 random bits, stored as SHA-256, expiring after
 * CONSOLE_PASSWORD_RESET_TTL_SECONDS, used once; a new one replaces the user's earlier ones.
 * Asking for one is answered before anything is looked up, and the link is made and mailed
 * afterwards, so that neither the answer nor its timing tells whether the address has a user.
 */
@Injectable()
export class PasswordResetsService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(PasswordResetsService.name);
  /** Links being made and mailed, awaited before the process ends. */
  private readonly pending = new Set<Promise<void>>();
  private warnedNoMail = false;

  constructor(
    @InjectRepository(PasswordReset) private readonly resets: Repository<PasswordReset>,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly throttle: SignInThrottleService,
    private readonly mailer: Mailer,
    private readonly config: ConsoleConfig,
  ) {}

  /** Mails a link to the address if it has a user, off the caller's path; a failure is logged, never answered. */
  request(email: string): void {
    const work = this.mailLink(email).catch((error: unknown) =>
      this.logger.error({ msg: 'password reset link not made', reason: error instanceof Error ? error.message : String(error) }),
    );
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  /** Resolves once every link asked for so far is stored and mailed, or has failed. */
  async settled(): Promise<void> {
    await Promise.all(this.pending);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.settled();
  }

  private async mailLink(email: string): Promise<void> {
    if (!this.mailer.enabled) return this.warnNoMail();
    const user = await this.users.findByEmail(email);
    if (!user) return;
    const token = newLinkToken(RESET_PREFIX);
    const expiresAt = new Date(Date.now() + this.config.CONSOLE_PASSWORD_RESET_TTL_SECONDS * 1000);
    await this.resets.manager.transaction(async (manager) => {
      await manager.delete(PasswordReset, { userId: user.id, usedAt: IsNull() });
      await manager.insert(PasswordReset, { tokenHash: hashLinkToken(token), accountId: user.accountId, userId: user.id, expiresAt, usedAt: null });
    });
    const link = consoleLink(this.config.CONSOLE_PUBLIC_URL, 'reset-password', token);
    await this.mailer.send(passwordResetMail({ email: user.email, link, expiresAt }));
  }

  /** Once per process: every request gets the same answer, and the operator learns from the log that none is mailed. */
  private warnNoMail(): void {
    if (this.warnedNoMail) return;
    this.warnedNoMail = true;
    this.logger.warn({ msg: 'password reset asked for, but the console sends no mail (no SMTP_URL): no reset link is made or sent' });
  }

  /** For whom a link is and until when; 404, 409 or 410 for one that cannot be used, saying which. */
  async check(token: string): Promise<OpenReset> {
    const reset = await this.resets.findOne({ where: { tokenHash: hashLinkToken(token) }, relations: { user: true } });
    if (!usableLink(reset)) throw linkRefusal(reset, RESET_REFUSALS);
    return { email: reset.user!.email, expiresAt: reset.expiresAt };
  }

  /**
   * Uses the link (an atomic update: of two uses at once one wins) and sets the password in the
   * same transaction, which also ends every session of the user and withdraws their other open
   * links. Then lifts the account's sign-in lock: the link proves the mailbox, and guesses at the
   * old password must not keep its owner out of the new one (the client address's count stays).
   * Answers how many sessions ended; signs nobody in.
   */
  async complete(token: string, password: string): Promise<number> {
    const passwordHash = await hashPassword(password);
    const tokenHash = hashLinkToken(token);
    const { email, ended } = await this.resets.manager.transaction(async (manager) => {
      const [rows] = await manager.query(
        `UPDATE translation.console_password_resets SET used_at = now()
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
         RETURNING user_id`,
        [tokenHash],
      );
      const used = (rows as { user_id: string }[])[0];
      if (!used) throw linkRefusal(await this.resets.findOneBy({ tokenHash }), RESET_REFUSALS);
      await manager.update(ConsoleUser, { id: used.user_id }, { passwordHash });
      await manager.delete(PasswordReset, { userId: used.user_id, usedAt: IsNull() });
      const user = await manager.findOneByOrFail(ConsoleUser, { id: used.user_id });
      return { email: user.email, ended: await this.sessions.closeAll(used.user_id, manager) };
    });
    // The password is set whatever Redis does: a lock left in place only runs out as it would have.
    await this.throttle.forgetAccount(email).catch((error: unknown) =>
      this.logger.warn({ msg: 'sign-in lock not lifted after a password reset', reason: error instanceof Error ? error.message : String(error) }),
    );
    return ended;
  }
}
