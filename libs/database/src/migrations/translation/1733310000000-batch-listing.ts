import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * GET /api/v1/batches lists an account's jobs of one mode newest first, a page after a
 * (created_at, id) cursor: this index serves it (read backwards) and every lookup the former
 * (account_id, sandbox) index served.
 */
export class BatchListing1733310000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'BatchListing1733310000000';
  readonly revertDestroys = [];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX batch_jobs_listing_idx ON translation.batch_jobs (account_id, sandbox, created_at, id)`);
    await q.query(`DROP INDEX translation.batch_jobs_account_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX batch_jobs_account_idx ON translation.batch_jobs (account_id, sandbox)`);
    await q.query(`DROP INDEX translation.batch_jobs_listing_idx`);
  }
}
