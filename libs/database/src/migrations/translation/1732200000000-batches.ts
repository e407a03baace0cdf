import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * Batch jobs with one row per text, and the transactional outbox: a job and the message that
 * queues it commit together, so a submission survives Redis being away.
 */
export class Batches1732200000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'Batches1732200000000';
  readonly revertDestroys = ['translation.outbox', 'translation.batch_texts', 'translation.batch_jobs'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE translation.batch_jobs (
      id text PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES translation.accounts(id) ON DELETE CASCADE,
      key_id uuid NOT NULL REFERENCES translation.api_keys(id) ON DELETE CASCADE,
      status text NOT NULL CHECK (status IN ('processing', 'done', 'failed')),
      source text,
      target text NOT NULL,
      format text NOT NULL,
      tier text NOT NULL,
      glossary jsonb,
      total integer NOT NULL CHECK (total > 0),
      done_count integer NOT NULL DEFAULT 0 CHECK (done_count >= 0 AND done_count <= total),
      words bigint NOT NULL CHECK (words >= 0),
      cost_cents bigint NOT NULL CHECK (cost_cents >= 0),
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz,
      expires_at timestamptz
    )`);
    await q.query(`CREATE INDEX batch_jobs_account_idx ON translation.batch_jobs (account_id)`);
    await q.query(`CREATE INDEX batch_jobs_expiry_idx ON translation.batch_jobs (status, expires_at)`);
    await q.query(`CREATE TABLE translation.batch_texts (
      job_id text NOT NULL REFERENCES translation.batch_jobs(id) ON DELETE CASCADE,
      idx integer NOT NULL CHECK (idx >= 0),
      text text NOT NULL,
      translation text,
      words integer NOT NULL CHECK (words >= 0),
      detected_source text,
      PRIMARY KEY (job_id, idx)
    )`);
    await q.query(`CREATE TABLE translation.outbox (
      id bigserial PRIMARY KEY,
      queue text NOT NULL,
      job_name text NOT NULL,
      payload jsonb NOT NULL,
      job_id text,
      options jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      dispatched_at timestamptz,
      attempts integer NOT NULL DEFAULT 0,
      last_error text
    )`);
    // Relays only ever scan what is still to be sent.
    await q.query(`CREATE INDEX outbox_pending_idx ON translation.outbox (queue, id) WHERE dispatched_at IS NULL`);
    await q.query(`CREATE INDEX outbox_dispatched_idx ON translation.outbox (dispatched_at) WHERE dispatched_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE translation.outbox`);
    await q.query(`DROP TABLE translation.batch_texts`);
    await q.query(`DROP TABLE translation.batch_jobs`);
  }
}
