import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * Variants whose job used up its attempts, one row per pending source: how many times
 * (`rounds`), the last error, and whether image-worker's sweep still starts it over
 * (`retrying`) or has given it up (`failed`, the source kept for an operator). A variant that is
 * made in the end loses its row.
 */
export class VariantFailures1733700000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'VariantFailures1733700000000';
  readonly revertDestroys = ['image.variant_failures'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE image.variant_failures (
      source_key text PRIMARY KEY,
      image_id uuid NOT NULL,
      format text NOT NULL,
      state text NOT NULL CHECK (state IN ('retrying', 'failed')),
      rounds integer NOT NULL CHECK (rounds > 0),
      last_error text NOT NULL,
      first_failed_at timestamptz NOT NULL,
      last_failed_at timestamptz NOT NULL
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE image.variant_failures`);
  }
}
