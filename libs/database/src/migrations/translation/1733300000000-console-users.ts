import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * People who sign in to the console: users of an account with a role, their server-side
 * sessions, invitations (only the SHA-256 of a token is kept) and requests for production
 * access. Accounts get `activated_at`: only an activated account may hold live keys, so accounts
 * that already hold a live key count as activated from the moment they got their first one.
 */
export class ConsoleUsers1733300000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'ConsoleUsers1733300000000';
  readonly revertDestroys = [
    'translation.console_users',
    'translation.console_sessions',
    'translation.console_invitations',
    'translation.activation_requests',
    'translation.accounts.activated_at',
  ];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE translation.accounts ADD COLUMN activated_at timestamptz`);
    await q.query(`UPDATE translation.accounts a SET activated_at = first_live.created_at
      FROM (SELECT account_id, min(created_at) AS created_at FROM translation.api_keys WHERE NOT sandbox GROUP BY account_id) first_live
      WHERE first_live.account_id = a.id`);

    await q.query(`CREATE TABLE translation.console_users (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES translation.accounts(id) ON DELETE CASCADE,
      email text NOT NULL,
      role text NOT NULL CHECK (role IN ('owner', 'member', 'reviewer')),
      password_hash text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    // Email addresses are stored lower-cased; one user per address across all accounts.
    await q.query(`CREATE UNIQUE INDEX console_users_email_idx ON translation.console_users (email)`);
    await q.query(`CREATE INDEX console_users_account_idx ON translation.console_users (account_id)`);

    await q.query(`CREATE TABLE translation.console_sessions (
      token_hash text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES translation.console_users(id) ON DELETE CASCADE,
      csrf_token text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX console_sessions_user_idx ON translation.console_sessions (user_id)`);

    await q.query(`CREATE TABLE translation.console_invitations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES translation.accounts(id) ON DELETE CASCADE,
      email text NOT NULL,
      role text NOT NULL CHECK (role IN ('owner', 'member', 'reviewer')),
      token_hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`);
    await q.query(`CREATE INDEX console_invitations_account_idx ON translation.console_invitations (account_id)`);

    await q.query(`CREATE TABLE translation.activation_requests (
      account_id uuid PRIMARY KEY REFERENCES translation.accounts(id) ON DELETE CASCADE,
      company text NOT NULL,
      vat_id text NOT NULL,
      intended_use text NOT NULL,
      requested_by uuid REFERENCES translation.console_users(id) ON DELETE SET NULL,
      requested_at timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE translation.activation_requests`);
    await q.query(`DROP TABLE translation.console_invitations`);
    await q.query(`DROP TABLE translation.console_sessions`);
    await q.query(`DROP TABLE translation.console_users`);
    await q.query(`ALTER TABLE translation.accounts DROP COLUMN activated_at`);
  }
}
