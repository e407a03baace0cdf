import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * Glossaries of an account. Entries are one JSON array per glossary: they are always read and
 * replaced whole, and a glossary holds at most a few thousand of them.
 */
export class Glossaries1732100000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'Glossaries1732100000000';
  readonly revertDestroys = ['translation.glossaries'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE translation.glossaries (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES translation.accounts(id) ON DELETE CASCADE,
      name text NOT NULL,
      source char(2) NOT NULL,
      targets text[] NOT NULL,
      entries jsonb NOT NULL CHECK (jsonb_typeof(entries) = 'array'),
      entry_count integer NOT NULL CHECK (entry_count >= 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX glossaries_account_idx ON translation.glossaries (account_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE translation.glossaries`);
  }
}
