import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { IsNull, Repository } from 'typeorm';
import { Reviewer } from './reviewer.entity';
import { generateReviewerToken, hashReviewerToken, isWellFormedReviewerToken, reviewerTokenHint } from './reviewer-token';

@Injectable()
export class ReviewerService {
  constructor(@InjectRepository(Reviewer) private readonly reviewers: Repository<Reviewer>) {}

  /** Creates a reviewer; the plain token is returned only here. */
  async create(languages: string[], name: string | null = null): Promise<{ reviewer: Reviewer; token: string }> {
    const token = generateReviewerToken();
    const reviewer = await this.reviewers.save(this.reviewers.create({ name, languages, tokenHash: hashReviewerToken(token), tokenHint: reviewerTokenHint(token), revokedAt: null }));
    return { reviewer, token };
  }

  /**
   * Stops the reviewer's token at once; revoking twice keeps the first time. Tasks it had claimed
   * return to the pool when their lease ends. Null for an unknown id.
   */
  async revoke(id: string): Promise<Reviewer | null> {
    if (!isUUID(id)) return null;
    await this.reviewers.update({ id, revokedAt: IsNull() }, { revokedAt: new Date() });
    return this.reviewers.findOneBy({ id });
  }

  /** The active reviewer holding `token`, looked up on every request so revocation acts at once. */
  async authenticate(token: string): Promise<Reviewer | null> {
    if (!isWellFormedReviewerToken(token)) return null;
    return this.reviewers.findOneBy({ tokenHash: hashReviewerToken(token), revokedAt: IsNull() });
  }
}
