import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * Console users with the role reviewer are reviewers: `console_users.reviewer_id` links a user to
 * the reviewer record that claims and answers tasks for them. Such a reviewer signs in to the
 * console and has no token, so a reviewer's token becomes optional. Invitations of reviewers
 * carry their languages. The reviewer's recent tasks are read by reviewer, newest answer first.
 */
export class ConsoleReviewers1733410000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'ConsoleReviewers1733410000000';
  readonly revertDestroys = ['translation.console_users.reviewer_id', 'translation.console_invitations.languages'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE translation.reviewers ALTER COLUMN token_hash DROP NOT NULL, ALTER COLUMN token_hint DROP NOT NULL`);
    await q.query(`ALTER TABLE translation.console_users ADD COLUMN reviewer_id uuid UNIQUE REFERENCES translation.reviewers(id) ON DELETE SET NULL`);
    await q.query(`ALTER TABLE translation.console_invitations ADD COLUMN languages text[] NOT NULL DEFAULT '{}'`);
    await q.query(`CREATE INDEX review_tasks_reviewer_idx ON translation.review_tasks (reviewer_id, answered_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX translation.review_tasks_reviewer_idx`);
    await q.query(`ALTER TABLE translation.console_invitations DROP COLUMN languages`);
    await q.query(`ALTER TABLE translation.console_users DROP COLUMN reviewer_id`);
    // Without their console users nobody can act as these reviewers: they stay, revoked, with a hash no token has.
    await q.query(`UPDATE translation.reviewers SET token_hash = 'none:' || id, token_hint = '', revoked_at = coalesce(revoked_at, now()) WHERE token_hash IS NULL`);
    await q.query(`ALTER TABLE translation.reviewers ALTER COLUMN token_hash SET NOT NULL, ALTER COLUMN token_hint SET NOT NULL`);
  }
}
