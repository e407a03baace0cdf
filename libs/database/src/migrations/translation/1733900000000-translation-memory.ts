import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * Translation memories of an account and mode, and their entries. Exact matches go through the
 * unique index (one entry per memory, language pair and source key hash: a new translation of
 * the same source replaces the old one); fuzzy ones through a trigram index on the key, which
 * needs pg_trgm. The extension stays on revert: the catalog uses it too.
 */
export class TranslationMemory1733900000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'TranslationMemory1733900000000';
  readonly revertDestroys = ['translation.memory_entries', 'translation.memories'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await q.query(`CREATE TABLE translation.memories (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES translation.accounts(id) ON DELETE CASCADE,
      sandbox boolean NOT NULL,
      name text NOT NULL,
      source char(2),
      entry_count integer NOT NULL DEFAULT 0 CHECK (entry_count >= 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX memories_account_idx ON translation.memories (account_id, sandbox, created_at)`);
    // Reviewers' verdicts go to the memory named `default`: one per account and mode, made on first use by whoever comes first.
    await q.query(`CREATE UNIQUE INDEX memories_default_idx ON translation.memories (account_id, sandbox) WHERE name = 'default'`);
    await q.query(`CREATE TABLE translation.memory_entries (
      id bigserial PRIMARY KEY,
      memory_id uuid NOT NULL REFERENCES translation.memories(id) ON DELETE CASCADE,
      source_lang char(2) NOT NULL,
      target_lang char(2) NOT NULL,
      source_text text NOT NULL,
      target_text text NOT NULL,
      source_codes jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(source_codes) = 'object'),
      target_codes jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(target_codes) = 'object'),
      source_key text NOT NULL,
      source_hash text NOT NULL,
      origin text NOT NULL CHECK (origin IN ('reviewer_edit', 'reviewer_approval', 'import', 'api')),
      provenance jsonb NOT NULL DEFAULT '{}',
      usage_count integer NOT NULL DEFAULT 0,
      last_used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT memory_entries_source_key UNIQUE (memory_id, source_lang, target_lang, source_hash)
    )`);
    // Listing pages and the export walk a memory in id order.
    await q.query(`CREATE INDEX memory_entries_memory_idx ON translation.memory_entries (memory_id, id)`);
    await q.query(`CREATE INDEX memory_entries_trgm_idx ON translation.memory_entries USING gin (source_key gin_trgm_ops)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE translation.memory_entries`);
    await q.query(`DROP TABLE translation.memories`);
  }
}
