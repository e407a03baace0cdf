import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { AccountService, assertSignupComplete } from '@platform/auth';
import { ApiError } from '@platform/errors';
import { isUUID } from 'class-validator';
import { IsNull, MoreThan, Repository } from 'typeorm';
import { ConsoleConfig } from '../config/console.config';
import { consoleLink, hashLinkToken, newLinkToken } from '../links/one-time-link';
import { Mailer, type MailOutcome } from '../mail/mailer.service';
import { assertLanguagesFit, ConsoleReviewers } from '../review/console-reviewers.service';
import type { ConsoleRole, ConsoleUser } from '../users/console-user.entity';
import { hashPassword } from '../users/password-hash';
import { normalizeEmail, UsersService } from '../users/users.service';
import { ConsoleInvitation } from './console-invitation.entity';
import { invitationMail } from './invitation-mail';

export interface IssuedInvitation {
  invitation: ConsoleInvitation;
  /** Where the invited person sets a password; holds the token, shown only now. */
  link: string;
  /** The link mailed to the invited address, or why not; null without SMTP_URL. */
  mail: MailOutcome | null;
}

const INVITATION_PREFIX = 'inv_';

export const INVITATION_UNUSABLE = 'This invitation link is unknown, already used or expired; ask for a new one';

/**
 * Invitation tokens are random (256 bits), stored as SHA-256 only, expire after
 * CONSOLE_INVITATION_TTL_SECONDS and work once. The link carries the token in its fragment,
 * which browsers do not send to servers, so it stays out of access logs.
 */
@Injectable()
export class InvitationsService {
  constructor(
    @InjectRepository(ConsoleInvitation) private readonly invitations: Repository<ConsoleInvitation>,
    private readonly users: UsersService,
    private readonly accounts: AccountService,
    private readonly mailer: Mailer,
    private readonly reviewers: ConsoleReviewers,
    private readonly config: ConsoleConfig,
  ) {}

  /**
   * Mails the link too when SMTP_URL is set; the invitation stands whether or not that works. A
   * reviewer may be invited with the languages they will review. An account whose sign-up is not
   * complete invites nobody (403), so that an unconfirmed sign-up cannot mail strangers.
   */
  async invite(accountId: string, email: string, role: ConsoleRole, languages?: string[]): Promise<IssuedInvitation> {
    const reviewed = assertLanguagesFit(role, languages);
    const account = await this.accounts.findById(accountId);
    if (!account) throw ApiError.notFound(`Account ${accountId} not found`);
    assertSignupComplete(account);
    if (await this.users.findByEmail(email)) throw ApiError.invalidParameter(`email: ${email} already has a console user`);
    const invitation = this.invitations.create({ accountId, email: normalizeEmail(email), role, languages: reviewed ?? [], usedAt: null });
    return this.issue(invitation, account.name);
  }

  /**
   * A new link for an open invitation, valid for CONSOLE_INVITATION_TTL_SECONDS from now and
   * mailed again; the earlier link stops working. 404 for an invitation that is not open.
   */
  async resend(accountId: string, id: string): Promise<IssuedInvitation> {
    const invitation = await this.findOpen(accountId, id);
    const account = await this.accounts.findById(accountId);
    if (!account) throw ApiError.notFound(`Account ${accountId} not found`);
    return this.issue(invitation, account.name);
  }

  /** Withdraws an open invitation: its link stops working at once. 404 for one that is not open. */
  async revoke(accountId: string, id: string): Promise<ConsoleInvitation> {
    const invitation = await this.findOpen(accountId, id);
    await this.invitations.delete({ id: invitation.id, usedAt: IsNull() });
    return invitation;
  }

  /** Gives the invitation a new token and expiry, stores it, and answers (and mails) its link, which holds the token. */
  private async issue(invitation: ConsoleInvitation, accountName: string): Promise<IssuedInvitation> {
    const token = newLinkToken(INVITATION_PREFIX);
    invitation.tokenHash = hashLinkToken(token);
    invitation.expiresAt = new Date(Date.now() + this.config.CONSOLE_INVITATION_TTL_SECONDS * 1000);
    const saved = await this.invitations.save(invitation);
    const link = consoleLink(this.config.CONSOLE_PUBLIC_URL, 'accept-invitation', token);
    return { invitation: saved, link, mail: await this.mail(saved, accountName, link) };
  }

  private async findOpen(accountId: string, id: string): Promise<ConsoleInvitation> {
    const invitation = isUUID(id) ? await this.invitations.findOneBy({ id, accountId, usedAt: IsNull(), expiresAt: MoreThan(new Date()) }) : null;
    if (!invitation) throw ApiError.notFound(`No open invitation ${id} in this account: it was accepted, withdrawn or has expired`);
    return invitation;
  }

  private async mail(invitation: ConsoleInvitation, accountName: string, link: string): Promise<MailOutcome | null> {
    if (!this.mailer.enabled) return null;
    const { email, role, expiresAt } = invitation;
    return this.mailer.send(invitationMail({ email, role, accountName, link, expiresAt }));
  }

  /** Invitations of the account that can still be accepted. */
  open(accountId: string): Promise<ConsoleInvitation[]> {
    return this.invitations.find({ where: { accountId, usedAt: IsNull(), expiresAt: MoreThan(new Date()) }, order: { createdAt: 'ASC' } });
  }

  /**
   * Uses the invitation and creates its user with the password (and a reviewer's reviewer
   * record), in one transaction: of two acceptances at once one wins, and a refused user (the
   * address taken meanwhile) leaves the invitation unused.
   */
  async accept(token: string, password: string): Promise<ConsoleUser> {
    const passwordHash = await hashPassword(password);
    return this.invitations.manager.transaction(async (manager) => {
      const [rows] = await manager.query(
        `UPDATE translation.console_invitations SET used_at = now()
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
         RETURNING account_id, email, role, languages`,
        [hashLinkToken(token)],
      );
      const used = (rows as { account_id: string; email: string; role: ConsoleRole; languages: string[] }[])[0];
      if (!used) throw ApiError.notFound(INVITATION_UNUSABLE);
      const user = await this.users.create(manager, { accountId: used.account_id, email: used.email, role: used.role, passwordHash });
      if (used.role === 'reviewer') await this.reviewers.enlist(manager, user, used.languages);
      return user;
    });
  }
}
