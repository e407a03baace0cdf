import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { TranslationErrorCode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { Reviewer, ReviewerService } from '@platform/review';
import { EntityManager, Repository } from 'typeorm';
import { ConsoleUser, type ConsoleRole } from '../users/console-user.entity';

/**
 * A console user with the role reviewer acts as a reviewer of the review tier: a reviewer record
 * of the user's account without a token, linked from the user (`console_users.reviewer_id`),
 * named by their email address: they review that account's jobs and no other's. Its languages are set by the account's owner; `admin reviewer:revoke` (translate-api)
 * stops it as it stops a token, and removing the user revokes it too.
 */
@Injectable()
export class ConsoleReviewers {
  constructor(
    private readonly reviewers: ReviewerService,
    @InjectRepository(ConsoleUser) private readonly users: Repository<ConsoleUser>,
  ) {}

  /**
   * Makes the user a reviewer of `languages`, in the caller's transaction: their reviewer record
   * takes the languages, or is created and linked. Without languages an existing record keeps
   * its own, and none is made: the user reviews nothing until the owner gives them languages.
   */
  async enlist(manager: EntityManager, user: ConsoleUser, languages: string[] | undefined): Promise<Reviewer | null> {
    const existing = user.reviewerId ? await manager.findOneBy(Reviewer, { id: user.reviewerId }) : null;
    if (existing) {
      if (languages) await this.reviewers.setLanguages(manager, existing.id, languages);
      return Object.assign(existing, languages && { languages });
    }
    if (!languages?.length) return null;
    const reviewer = await this.reviewers.createWithoutToken(manager, user.accountId, languages, user.email);
    await manager.update(ConsoleUser, { id: user.id }, { reviewerId: reviewer.id });
    return Object.assign(user, { reviewerId: reviewer.id, reviewer }).reviewer!;
  }

  /** Their reviewer record stops with the user. */
  async dismiss(manager: EntityManager, user: ConsoleUser): Promise<void> {
    if (user.reviewerId) await this.reviewers.revoke(user.reviewerId, manager);
  }

  /** The reviewer a signed-in reviewer acts as, looked up on every request so that a revocation acts at once. */
  async of(userId: string): Promise<Reviewer> {
    const user = await this.users.findOne({ where: { id: userId }, relations: { reviewer: true } });
    const reviewer = user?.reviewer;
    if (!reviewer) throw new ApiError(403, TranslationErrorCode.Forbidden, 'You have no languages to review yet: the account\u2019s owner sets them');
    if (reviewer.revokedAt) throw new ApiError(403, 'reviewer_revoked', 'An operator revoked your reviewer access; ask the account\u2019s owner');
    return reviewer;
  }
}

/** Languages belong to reviewers only; 422 when given for another role. */
export function assertLanguagesFit(role: ConsoleRole, languages: string[] | undefined): string[] | undefined {
  if (languages && role !== 'reviewer') throw ApiError.invalidParameter(`languages: only reviewers have languages, not a ${role}`);
  return languages && [...new Set(languages)];
}
