import { Injectable } from '@nestjs/common';
import { EU_LANGUAGES, isEuLanguage, type ApiKeyPrincipal } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { DataSource } from 'typeorm';

/** Who can review an account's live jobs in one language. */
export interface ReviewCoverage {
  language: string;
  /** The account's own reviewers of the language who can work now. */
  ownReviewers: number;
  /** Whether the platform's pool has a reviewer of the language who can work now. */
  poolAvailable: boolean;
  /** Whether the account lets the platform's pool review the language. */
  pool: boolean;
}

/**
 * Reviewers who can work now: not revoked by an operator, and, for a console user's record, the
 * user still a reviewer (a user given another role keeps the record, to get it back, but reviews
 * nothing meanwhile).
 */
const WORKING_REVIEWER = `r.revoked_at IS NULL AND NOT EXISTS (SELECT 1 FROM translation.console_users u WHERE u.reviewer_id = r.id AND u.role <> 'reviewer')`;

/**
 * Which people review an account's review-tier jobs: always the account's own reviewers, and
 * the platform's pool (the operator's reviewers, who belong to no account) in the languages the
 * account opts into. A job records the choice for its language when it is submitted.
 */
@Injectable()
export class ReviewRouting {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Whether the platform's pool may review a review-tier job the key submits in `target`. A live
   * job that nobody could review is refused rather than left waiting; sandbox review is
   * simulated and needs nobody.
   */
  async route(key: ApiKeyPrincipal, target: string): Promise<boolean> {
    if (!isEuLanguage(target)) return false;
    const [coverage] = await this.coverage(key.accountId, [target]);
    if (!key.sandbox && coverage.ownReviewers === 0 && !(coverage.pool && coverage.poolAvailable)) {
      const remedy = coverage.pool
        ? `the platform's reviewers, whom it lets review ${target}, have none of ${target} at the moment; invite a reviewer of ${target} in the console`
        : coverage.poolAvailable
          ? `invite one in the console, or let the platform's reviewers review ${target} (console: Users, Who reviews)`
          : `the platform has none either; invite one in the console`;
      throw ApiError.invalidParameter(`tier review: this account has no reviewer of ${target}; ${remedy}`);
    }
    return coverage.pool;
  }

  /** Per language, in the order given (all EU languages by default). */
  async coverage(accountId: string, languages: readonly string[] = EU_LANGUAGES): Promise<ReviewCoverage[]> {
    const rows = await this.dataSource.query<Array<{ language: string; own: string; pool_available: boolean; pool: boolean }>>(
      `SELECT l.language,
              count(r.id) FILTER (WHERE r.account_id = a.id) AS own,
              bool_or(r.id IS NOT NULL AND r.account_id IS NULL) AS pool_available,
              l.language = ANY(a.review_pool_languages) AS pool
       FROM translation.accounts a
       CROSS JOIN unnest($2::text[]) WITH ORDINALITY AS l(language, n)
       LEFT JOIN translation.reviewers r ON l.language = ANY(r.languages) AND (r.account_id = a.id OR r.account_id IS NULL) AND ${WORKING_REVIEWER}
       WHERE a.id = $1
       GROUP BY l.language, l.n, a.review_pool_languages
       ORDER BY l.n`,
      [accountId, languages],
    );
    return rows.map((row) => ({ language: row.language, ownReviewers: Number(row.own), poolAvailable: row.pool_available, pool: row.pool }));
  }

  /** The languages in which the account lets the platform's pool review its jobs submitted from now on. */
  async setPoolLanguages(accountId: string, languages: readonly string[]): Promise<void> {
    await this.dataSource.query(`UPDATE translation.accounts SET review_pool_languages = $2 WHERE id = $1`, [accountId, [...new Set(languages)].sort()]);
  }
}
