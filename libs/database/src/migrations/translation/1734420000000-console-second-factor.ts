import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * An optional second factor of console users: a TOTP secret (pending until confirmed with a
 * code, with the time step of the last code accepted, so that no code works twice), recovery
 * codes kept as SHA-256 only and spent once, and the short-lived challenges a right password
 * answers for a user who has one, kept as SHA-256 of their token. All go with their user.
 */
export class ConsoleSecondFactor1734420000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'ConsoleSecondFactor1734420000000';
  readonly revertDestroys = ['translation.console_second_factors', 'translation.console_recovery_codes', 'translation.console_sign_in_challenges'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE translation.console_second_factors (
      user_id uuid PRIMARY KEY REFERENCES translation.console_users(id) ON DELETE CASCADE,
      secret text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      confirmed_at timestamptz,
      last_time_step bigint
    )`);
    await q.query(`CREATE TABLE translation.console_recovery_codes (
      user_id uuid NOT NULL REFERENCES translation.console_users(id) ON DELETE CASCADE,
      code_hash text NOT NULL,
      used_at timestamptz,
      PRIMARY KEY (user_id, code_hash)
    )`);
    await q.query(`CREATE TABLE translation.console_sign_in_challenges (
      token_hash text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES translation.console_users(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX console_sign_in_challenges_user_idx ON translation.console_sign_in_challenges (user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE translation.console_sign_in_challenges`);
    await q.query(`DROP TABLE translation.console_recovery_codes`);
    await q.query(`DROP TABLE translation.console_second_factors`);
  }
}
