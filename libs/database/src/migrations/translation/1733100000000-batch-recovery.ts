import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What batch-worker's reconciler needs to find batch jobs that lost their queue entry: when a
 * job last moved, how often it was queued again (its Bull job is `batch:<id>:<requeues>`) and
 * how often of those it had to be recovered. Jobs in flight when this runs count as having just
 * moved, and are queued again only if they stay still for the reconciler's grace period.
 */
export class BatchRecovery1733100000000 implements MigrationInterface {
  name = 'BatchRecovery1733100000000';
  readonly revertDestroys = ['translation.batch_jobs.progress_at', 'translation.batch_jobs.requeues', 'translation.batch_jobs.recoveries'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE translation.batch_jobs
      ADD COLUMN progress_at timestamptz NOT NULL DEFAULT now(),
      ADD COLUMN requeues integer NOT NULL DEFAULT 0 CHECK (requeues >= 0),
      ADD COLUMN recoveries integer NOT NULL DEFAULT 0 CHECK (recoveries >= 0)`);
    // The reconciler only ever looks at jobs still processing, oldest progress first.
    await q.query(`CREATE INDEX batch_jobs_progress_idx ON translation.batch_jobs (progress_at) WHERE status = 'processing'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX translation.batch_jobs_progress_idx`);
    await q.query(`ALTER TABLE translation.batch_jobs DROP COLUMN progress_at, DROP COLUMN requeues, DROP COLUMN recoveries`);
  }
}
