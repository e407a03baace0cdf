import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * Links that let a console user who forgot their password choose a new one. Like invitations
 * and confirmation links they keep only the SHA-256 of their token; they belong to a user and go
 * with it.
 */
export class ConsolePasswordResets1734400000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'ConsolePasswordResets1734400000000';
  readonly revertDestroys = ['translation.console_password_resets'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE translation.console_password_resets (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES translation.accounts(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES translation.console_users(id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`);
    await q.query(`CREATE INDEX console_password_resets_user_idx ON translation.console_password_resets (user_id)`);
    await q.query(`CREATE INDEX console_password_resets_account_idx ON translation.console_password_resets (account_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE translation.console_password_resets`);
  }
}
