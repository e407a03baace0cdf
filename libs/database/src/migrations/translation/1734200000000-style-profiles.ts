import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * Style profiles of an account and mode, and the profile each batch was accepted with. A
 * profile's default glossary and memory are references that go back to null when the glossary or
 * memory is deleted, so deleting one never fails because a profile names it. At most one profile
 * per account and mode is the default. The batch keeps a copy of the profile as it was at
 * submission (like its glossary's terms), so the worker applies what the request was charged with,
 * and the engines that applied its formality and those that could not, as its steps record them.
 */
export class StyleProfiles1734200000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'StyleProfiles1734200000000';
  readonly revertDestroys = ['translation.style_profiles', 'translation.batch_jobs.style_profile', 'translation.batch_jobs.formality_applied_by', 'translation.batch_jobs.formality_ignored_by'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE translation.style_profiles (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES translation.accounts(id) ON DELETE CASCADE,
      sandbox boolean NOT NULL,
      name text NOT NULL,
      is_default boolean NOT NULL DEFAULT false,
      do_not_translate jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(do_not_translate) = 'array'),
      typography jsonb NOT NULL CHECK (jsonb_typeof(typography) = 'object'),
      formality text NOT NULL DEFAULT 'default' CHECK (formality IN ('default', 'more', 'less')),
      glossary_id uuid REFERENCES translation.glossaries(id) ON DELETE SET NULL,
      memory_id uuid REFERENCES translation.memories(id) ON DELETE SET NULL,
      notes text NOT NULL DEFAULT '',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX style_profiles_account_idx ON translation.style_profiles (account_id, sandbox, created_at)`);
    await q.query(`CREATE UNIQUE INDEX style_profiles_default_idx ON translation.style_profiles (account_id, sandbox) WHERE is_default`);
    // The references' own indexes, so that deleting a glossary or memory finds the profiles to update without a scan.
    await q.query(`CREATE INDEX style_profiles_glossary_idx ON translation.style_profiles (glossary_id) WHERE glossary_id IS NOT NULL`);
    await q.query(`CREATE INDEX style_profiles_memory_idx ON translation.style_profiles (memory_id) WHERE memory_id IS NOT NULL`);
    await q.query(`ALTER TABLE translation.batch_jobs
      ADD COLUMN style_profile jsonb CHECK (jsonb_typeof(style_profile) = 'object'),
      ADD COLUMN formality_applied_by text[] NOT NULL DEFAULT '{}',
      ADD COLUMN formality_ignored_by text[] NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE translation.batch_jobs DROP COLUMN style_profile, DROP COLUMN formality_applied_by, DROP COLUMN formality_ignored_by`);
    await q.query(`DROP TABLE translation.style_profiles`);
  }
}
