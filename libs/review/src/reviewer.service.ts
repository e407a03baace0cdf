import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { TranslationErrorCode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { isUUID } from 'class-validator';
import { EntityManager, IsNull, Repository } from 'typeorm';
import { Reviewer } from './reviewer.entity';
import { generateReviewerToken, hashReviewerToken, isWellFormedReviewerToken, reviewerTokenHint } from './reviewer-token';

/** 403 for a language the reviewer does not review. */
export function assertReviews(reviewer: Reviewer, language: string): void {
  if (!reviewer.languages.includes(language)) throw new ApiError(403, TranslationErrorCode.Forbidden, `You review ${reviewer.languages.join(', ')}, not ${language}`);
}

@Injectable()
export class ReviewerService {
  constructor(@InjectRepository(Reviewer) private readonly reviewers: Repository<Reviewer>) {}

  /**
   * Creates a reviewer with a token, returned only here: of one account, or of the platform's
   * pool without one.
   */
  async create(languages: string[], { name = null, accountId = null }: { name?: string | null; accountId?: string | null } = {}): Promise<{ reviewer: Reviewer; token: string }> {
    const token = generateReviewerToken();
    const reviewer = await this.reviewers.save(
      this.reviewers.create({ name, accountId, languages, tokenHash: hashReviewerToken(token), tokenHint: reviewerTokenHint(token), revokedAt: null }),
    );
    return { reviewer, token };
  }

  /** A reviewer of the account without a token, for a person who signs in elsewhere (the console); in the caller's transaction. */
  createWithoutToken(manager: EntityManager, accountId: string, languages: string[], name: string): Promise<Reviewer> {
    return manager.save(manager.create(Reviewer, { name, accountId, languages, tokenHash: null, tokenHint: null, revokedAt: null }));
  }

  async setLanguages(manager: EntityManager, id: string, languages: string[]): Promise<void> {
    await manager.update(Reviewer, { id }, { languages });
  }

  find(id: string): Promise<Reviewer | null> {
    return isUUID(id) ? this.reviewers.findOneBy({ id }) : Promise.resolve(null);
  }

  /**
   * Stops the reviewer at once, token or console alike; revoking twice keeps the first time.
   * Tasks it had claimed return to the pool when their lease ends. Null for an unknown id.
   */
  async revoke(id: string, manager: EntityManager = this.reviewers.manager): Promise<Reviewer | null> {
    if (!isUUID(id)) return null;
    await manager.update(Reviewer, { id, revokedAt: IsNull() }, { revokedAt: new Date() });
    return manager.findOneBy(Reviewer, { id });
  }

  /** The active reviewer holding `token`, looked up on every request so revocation acts at once. */
  async authenticate(token: string): Promise<Reviewer | null> {
    if (!isWellFormedReviewerToken(token)) return null;
    return this.reviewers.findOneBy({ tokenHash: hashReviewerToken(token), revokedAt: IsNull() });
  }
}
