import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Batch jobs remember whether the texts' HTML attributes are translated: the words were counted
 * that way at submission, and the worker must translate what was charged. Jobs accepted before
 * were counted without attributes, so they keep `false`; new jobs get the default, `true`.
 */
export class BatchHtmlAttributes1733200000000 implements MigrationInterface {
  name = 'BatchHtmlAttributes1733200000000';
  readonly revertDestroys = ['translation.batch_jobs.html_attributes'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE translation.batch_jobs ADD COLUMN html_attributes boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE translation.batch_jobs ALTER COLUMN html_attributes SET DEFAULT true`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE translation.batch_jobs DROP COLUMN html_attributes`);
  }
}
