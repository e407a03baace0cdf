import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * Who may review what becomes data. A reviewer belongs to one account (`reviewers.account_id`)
 * or, without one, to the platform's pool of the operator's reviewers. An account lets the pool
 * review the languages in `accounts.review_pool_languages`, and each batch job records at
 * submission whether the pool may review it (`batch_jobs.review_pool`).
 *
 * Until now every reviewer saw every account's tasks. Console reviewers take the account of
 * their user. So that nothing waiting today is stranded, jobs already submitted stay open to the
 * pool, and an account that has sent live review-tier jobs keeps the pool for those languages;
 * every other account starts with its own reviewers only.
 */
export class ReviewScope1733700000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'ReviewScope1733700000000';
  readonly revertDestroys = ['translation.reviewers.account_id', 'translation.accounts.review_pool_languages', 'translation.batch_jobs.review_pool'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE translation.reviewers ADD COLUMN account_id uuid REFERENCES translation.accounts(id) ON DELETE CASCADE`);
    await q.query(`UPDATE translation.reviewers r SET account_id = u.account_id FROM translation.console_users u WHERE u.reviewer_id = r.id`);
    await q.query(`CREATE INDEX reviewers_account_idx ON translation.reviewers (account_id)`);
    await q.query(`ALTER TABLE translation.accounts ADD COLUMN review_pool_languages text[] NOT NULL DEFAULT '{}'`);
    await q.query(
      `UPDATE translation.accounts a SET review_pool_languages = used.languages
       FROM (SELECT account_id, array_agg(DISTINCT target ORDER BY target) AS languages FROM translation.batch_jobs WHERE tier = 'review' AND NOT sandbox GROUP BY account_id) used
       WHERE used.account_id = a.id`,
    );
    await q.query(`ALTER TABLE translation.batch_jobs ADD COLUMN review_pool boolean NOT NULL DEFAULT false`);
    await q.query(`UPDATE translation.batch_jobs SET review_pool = true WHERE tier = 'review'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE translation.batch_jobs DROP COLUMN review_pool`);
    await q.query(`ALTER TABLE translation.accounts DROP COLUMN review_pool_languages`);
    await q.query(`DROP INDEX translation.reviewers_account_idx`);
    await q.query(`ALTER TABLE translation.reviewers DROP COLUMN account_id`);
  }
}
