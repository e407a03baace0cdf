import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * Sandbox and live become two worlds of an account: glossaries, batch jobs, the webhook endpoint
 * (one per account and mode) and its events belong to a mode (`sandbox`); deliveries follow
 * their event. Existing rows are placed from what the data tells:
 * - batch jobs take the mode of the key that submitted them;
 * - events take the mode of the job they announce (live when the job is gone);
 * - a glossary has no creator, so it goes to sandbox when the account has only ever had sandbox
 *   keys, else to live; an account with keys of both modes also gets a sandbox copy (new id);
 * - an existing webhook endpoint stays with live.
 * Accounts get operator ceilings (null: none), and account_usage holds each account's words per
 * mode and month, the row that serialises charges of one account and mode.
 */
export class ModesAndAccountLimits1733000000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'ModesAndAccountLimits1733000000000';
  // Sandbox webhook endpoints are deleted by the revert, as one endpoint per account remains.
  readonly revertDestroys = [
    'translation.account_usage',
    'translation.accounts.monthly_word_limit',
    'translation.accounts.rate_limit_per_minute',
    'translation.webhook_endpoints.sandbox',
    'translation.webhook_events.sandbox',
    'translation.glossaries.sandbox',
  ];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE translation.batch_jobs j SET sandbox = k.sandbox FROM translation.api_keys k WHERE k.id = j.key_id AND j.sandbox <> k.sandbox`);
    await q.query(`ALTER TABLE translation.batch_jobs ALTER COLUMN sandbox DROP DEFAULT`);
    await q.query(`DROP INDEX translation.batch_jobs_account_idx`);
    await q.query(`CREATE INDEX batch_jobs_account_idx ON translation.batch_jobs (account_id, sandbox)`);

    await q.query(`ALTER TABLE translation.glossaries ADD COLUMN sandbox boolean`);
    await q.query(`UPDATE translation.glossaries g SET sandbox = NOT EXISTS (
      SELECT 1 FROM translation.api_keys k WHERE k.account_id = g.account_id AND NOT k.sandbox)
      AND EXISTS (SELECT 1 FROM translation.api_keys k WHERE k.account_id = g.account_id)`);
    await q.query(`INSERT INTO translation.glossaries (account_id, sandbox, name, source, targets, entries, entry_count, created_at, updated_at)
      SELECT g.account_id, true, g.name, g.source, g.targets, g.entries, g.entry_count, g.created_at, g.updated_at
      FROM translation.glossaries g
      WHERE NOT g.sandbox AND EXISTS (SELECT 1 FROM translation.api_keys k WHERE k.account_id = g.account_id AND k.sandbox)`);
    await q.query(`ALTER TABLE translation.glossaries ALTER COLUMN sandbox SET NOT NULL`);
    await q.query(`DROP INDEX translation.glossaries_account_idx`);
    await q.query(`CREATE INDEX glossaries_account_idx ON translation.glossaries (account_id, sandbox, created_at)`);

    await q.query(`ALTER TABLE translation.webhook_endpoints ADD COLUMN sandbox boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE translation.webhook_endpoints ALTER COLUMN sandbox DROP DEFAULT`);
    await q.query(`ALTER TABLE translation.webhook_endpoints DROP CONSTRAINT webhook_endpoints_pkey`);
    await q.query(`ALTER TABLE translation.webhook_endpoints ADD PRIMARY KEY (account_id, sandbox)`);

    await q.query(`ALTER TABLE translation.webhook_events ADD COLUMN sandbox boolean`);
    await q.query(`UPDATE translation.webhook_events e SET sandbox = COALESCE(
      (SELECT j.sandbox FROM translation.batch_jobs j WHERE j.id = e.payload->'data'->>'job'), false)`);
    await q.query(`ALTER TABLE translation.webhook_events ALTER COLUMN sandbox SET NOT NULL`);

    await q.query(`ALTER TABLE translation.accounts
      ADD COLUMN monthly_word_limit bigint CHECK (monthly_word_limit >= 0),
      ADD COLUMN rate_limit_per_minute integer CHECK (rate_limit_per_minute > 0)`);
    await q.query(`CREATE TABLE translation.account_usage (
      account_id uuid NOT NULL REFERENCES translation.accounts(id) ON DELETE CASCADE,
      sandbox boolean NOT NULL,
      month char(7) NOT NULL,
      words bigint NOT NULL DEFAULT 0 CHECK (words >= 0),
      cost_cents bigint NOT NULL DEFAULT 0 CHECK (cost_cents >= 0),
      PRIMARY KEY (account_id, sandbox, month)
    )`);
    await q.query(`INSERT INTO translation.account_usage (account_id, sandbox, month, words, cost_cents)
      SELECT k.account_id, k.sandbox, u.month, sum(u.words), sum(u.cost_cents)
      FROM translation.key_usage u JOIN translation.api_keys k ON k.id = u.key_id
      GROUP BY k.account_id, k.sandbox, u.month`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE translation.account_usage`);
    await q.query(`ALTER TABLE translation.accounts DROP COLUMN monthly_word_limit, DROP COLUMN rate_limit_per_minute`);
    await q.query(`ALTER TABLE translation.webhook_events DROP COLUMN sandbox`);
    // One endpoint per account again: the live one wins.
    await q.query(`DELETE FROM translation.webhook_endpoints WHERE sandbox AND account_id IN (
      SELECT account_id FROM translation.webhook_endpoints WHERE NOT sandbox)`);
    await q.query(`ALTER TABLE translation.webhook_endpoints DROP CONSTRAINT webhook_endpoints_pkey`);
    await q.query(`ALTER TABLE translation.webhook_endpoints DROP COLUMN sandbox`);
    await q.query(`ALTER TABLE translation.webhook_endpoints ADD PRIMARY KEY (account_id)`);
    await q.query(`DROP INDEX translation.glossaries_account_idx`);
    await q.query(`ALTER TABLE translation.glossaries DROP COLUMN sandbox`);
    await q.query(`CREATE INDEX glossaries_account_idx ON translation.glossaries (account_id, created_at)`);
    await q.query(`DROP INDEX translation.batch_jobs_account_idx`);
    await q.query(`CREATE INDEX batch_jobs_account_idx ON translation.batch_jobs (account_id)`);
    await q.query(`ALTER TABLE translation.batch_jobs ALTER COLUMN sandbox SET DEFAULT false`);
  }
}
