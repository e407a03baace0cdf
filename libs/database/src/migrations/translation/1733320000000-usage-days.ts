import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * Each key's words and cost per UTC day, kept with every charge and refund like key_usage is per
 * month, so a usage history reads at most a row per key and day instead of summing a ledger that
 * grows by millions of charges. A refund is taken off the day of the charge it gives back. The
 * day of a charge is the UTC day of its `created_at`; existing charges are rolled up from it.
 */
export class UsageDays1733320000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'UsageDays1733320000000';
  readonly revertDestroys = ['translation.key_daily_usage'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE translation.key_daily_usage (
      key_id uuid NOT NULL REFERENCES translation.api_keys(id) ON DELETE CASCADE,
      day date NOT NULL,
      words bigint NOT NULL DEFAULT 0 CHECK (words >= 0),
      cost_cents bigint NOT NULL DEFAULT 0 CHECK (cost_cents >= 0),
      PRIMARY KEY (key_id, day)
    )`);
    await q.query(`INSERT INTO translation.key_daily_usage (key_id, day, words, cost_cents)
      SELECT key_id, (created_at AT TIME ZONE 'UTC')::date, sum(words), sum(cost_cents)
      FROM translation.quota_charges WHERE refunded_at IS NULL
      GROUP BY 1, 2`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE translation.key_daily_usage`);
  }
}
