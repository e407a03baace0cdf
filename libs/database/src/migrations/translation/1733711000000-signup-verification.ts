import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * A signed-up account holds no key until its owner confirms the email address
 * (`signup_verified_at`) and, where the operator approves sign-ups by hand, until then too
 * (`signup_approved_at`). Accounts made any other way are both from the start (the columns'
 * default), and accounts that exist already count as both since they were created.
 * Confirmation links keep only the SHA-256 of their token, as invitations do.
 */
export class SignupVerification1733711000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'SignupVerification1733711000000';
  readonly revertDestroys = ['translation.console_email_verifications', 'translation.accounts.signup_verified_at', 'translation.accounts.signup_approved_at'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE translation.accounts
      ADD COLUMN signup_verified_at timestamptz DEFAULT now(),
      ADD COLUMN signup_approved_at timestamptz DEFAULT now(),
      ADD CONSTRAINT accounts_signup_approved_after_verified CHECK (signup_approved_at IS NULL OR signup_verified_at IS NOT NULL)`);
    await q.query(`UPDATE translation.accounts SET signup_verified_at = created_at, signup_approved_at = created_at`);
    // The operator's list of sign-ups waiting for approval, oldest first.
    await q.query(`CREATE INDEX accounts_signup_waiting_idx ON translation.accounts (signup_verified_at) WHERE signup_approved_at IS NULL`);

    await q.query(`CREATE TABLE translation.console_email_verifications (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES translation.accounts(id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`);
    await q.query(`CREATE INDEX console_email_verifications_account_idx ON translation.console_email_verifications (account_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE translation.console_email_verifications`);
    await q.query(`DROP INDEX translation.accounts_signup_waiting_idx`);
    await q.query(`ALTER TABLE translation.accounts DROP CONSTRAINT accounts_signup_approved_after_verified, DROP COLUMN signup_approved_at, DROP COLUMN signup_verified_at`);
  }
}
