import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * The review tier: reviewers (separate principals with their own tokens) and the sampled texts
 * of review-tier jobs they answer. `batch_jobs.sandbox` records whether a sandbox key submitted
 * the job, whose review is then simulated.
 */
export class Review1732400000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'Review1732400000000';
  readonly revertDestroys = ['translation.review_tasks', 'translation.reviewers', 'translation.batch_jobs.sandbox'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE translation.batch_jobs ADD COLUMN sandbox boolean NOT NULL DEFAULT false`);
    await q.query(`CREATE TABLE translation.reviewers (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text,
      languages text[] NOT NULL CHECK (cardinality(languages) > 0),
      token_hash text NOT NULL UNIQUE,
      token_hint text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz
    )`);
    await q.query(`CREATE TABLE translation.review_tasks (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      job_id text NOT NULL REFERENCES translation.batch_jobs(id) ON DELETE CASCADE,
      idx integer NOT NULL,
      target text NOT NULL,
      source_text text NOT NULL,
      machine_translation text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'claimed', 'approved', 'edited')),
      reviewer_id uuid REFERENCES translation.reviewers(id) ON DELETE SET NULL,
      lease_until timestamptz,
      verdict_translation text,
      created_at timestamptz NOT NULL DEFAULT now(),
      answered_at timestamptz,
      UNIQUE (job_id, idx)
    )`);
    await q.query(`CREATE INDEX review_tasks_queue_idx ON translation.review_tasks (target, status)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE translation.review_tasks`);
    await q.query(`DROP TABLE translation.reviewers`);
    await q.query(`ALTER TABLE translation.batch_jobs DROP COLUMN sandbox`);
  }
}
