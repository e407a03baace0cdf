import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

export class AccountsAndKeys1732000000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'AccountsAndKeys1732000000000';
  readonly revertDestroys = ['translation.quota_charges', 'translation.key_usage', 'translation.api_keys', 'translation.accounts'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE translation.accounts (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE translation.api_keys (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES translation.accounts(id) ON DELETE CASCADE,
      name text,
      key_hash text NOT NULL UNIQUE,
      key_hint text NOT NULL,
      sandbox boolean NOT NULL,
      scopes text[] NOT NULL DEFAULT '{translate}',
      monthly_word_limit bigint CHECK (monthly_word_limit >= 0),
      rate_limit_per_minute integer CHECK (rate_limit_per_minute > 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      regenerated_at timestamptz,
      revoked_at timestamptz
    )`);
    await q.query(`CREATE INDEX api_keys_account_idx ON translation.api_keys (account_id)`);
    await q.query(`CREATE TABLE translation.key_usage (
      key_id uuid NOT NULL REFERENCES translation.api_keys(id) ON DELETE CASCADE,
      month char(7) NOT NULL,
      words bigint NOT NULL DEFAULT 0 CHECK (words >= 0),
      cost_cents bigint NOT NULL DEFAULT 0 CHECK (cost_cents >= 0),
      PRIMARY KEY (key_id, month)
    )`);
    await q.query(`CREATE TABLE translation.quota_charges (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      key_id uuid NOT NULL REFERENCES translation.api_keys(id) ON DELETE CASCADE,
      month char(7) NOT NULL,
      words bigint NOT NULL CHECK (words >= 0),
      cost_cents bigint NOT NULL CHECK (cost_cents >= 0),
      reference text UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      refunded_at timestamptz
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE translation.quota_charges`);
    await q.query(`DROP TABLE translation.key_usage`);
    await q.query(`DROP TABLE translation.api_keys`);
    await q.query(`DROP TABLE translation.accounts`);
  }
}
