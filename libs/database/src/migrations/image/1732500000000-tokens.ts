import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

export class Tokens1732500000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'Tokens1732500000000';
  readonly revertDestroys = ['image.monthly_usage', 'image.access_tokens', 'image.subscriptions'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE image.subscriptions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      plan text NOT NULL CHECK (plan IN ('free', 'starter', 'pro', 'business')),
      monthly_limit_override integer CHECK (monthly_limit_override >= 0),
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE image.access_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      subscription_id uuid NOT NULL REFERENCES image.subscriptions(id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      token_hint text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz
    )`);
    await q.query(`CREATE INDEX access_tokens_subscription_idx ON image.access_tokens (subscription_id)`);
    await q.query(`CREATE TABLE image.monthly_usage (
      subscription_id uuid NOT NULL REFERENCES image.subscriptions(id) ON DELETE CASCADE,
      month char(7) NOT NULL,
      conversions integer NOT NULL DEFAULT 0 CHECK (conversions >= 0),
      PRIMARY KEY (subscription_id, month)
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE image.monthly_usage`);
    await q.query(`DROP TABLE image.access_tokens`);
    await q.query(`DROP TABLE image.subscriptions`);
  }
}
