import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * What memories decided for a batch when it was accepted, so that the worker translates what was
 * charged: per text, the stored translations and the sentences kept as sent (`plan`, null when
 * the engine does every sentence), the origin of most of its words and where it stays
 * untranslated; per job, whether text no engine can translate is kept (`missing`). Jobs accepted
 * before have none of it: the engine does all their texts, as it did.
 */
export class BatchMemory1734050000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'BatchMemory1734050000000';
  readonly revertDestroys = ['translation.batch_jobs.missing', 'translation.batch_texts.plan', 'translation.batch_texts.origin', 'translation.batch_texts.untranslated'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE translation.batch_jobs ADD COLUMN missing text CHECK (missing IN ('keep'))`);
    await q.query(`ALTER TABLE translation.batch_texts
      ADD COLUMN plan jsonb CHECK (jsonb_typeof(plan) = 'array'),
      ADD COLUMN origin text CHECK (origin IN ('memory', 'catalog', 'engine', 'none')),
      ADD COLUMN untranslated jsonb CHECK (jsonb_typeof(untranslated) = 'array')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE translation.batch_texts DROP COLUMN plan, DROP COLUMN origin, DROP COLUMN untranslated`);
    await q.query(`ALTER TABLE translation.batch_jobs DROP COLUMN missing`);
  }
}
