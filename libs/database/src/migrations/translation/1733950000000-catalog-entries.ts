import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * The catalog memory: translations of short interface strings read from the machine's installed
 * message catalogs (`catalog:build`). A build writes its entries under its own id while the
 * previous build keeps answering; one transaction then makes it the active build, so lookups see
 * one whole catalog or the other. At most one build is active; retired builds, and those a stopped build left, are
 * deleted with their entries.
 *
 * One row per key and candidate translation, with how many packages give it and which (package,
 * domain, licence): lookups take the most agreed-upon. Exact lookups compare the SHA-256 of the case-folded
 * normalised key (`key_hash`), then prefer the row whose key has the query's own case.
 */
export class CatalogEntries1733950000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'CatalogEntries1733950000000';
  // Everything here is rebuilt from the installed packages by `catalog:build`: a revert loses nothing.
  readonly revertDestroys = [];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE translation.catalog_builds (
      id bigserial PRIMARY KEY,
      fingerprint text NOT NULL,
      status text NOT NULL CHECK (status IN ('building', 'active', 'retired')),
      summary jsonb NOT NULL DEFAULT '{}',
      started_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz
    )`);
    await q.query(`CREATE UNIQUE INDEX catalog_builds_active_idx ON translation.catalog_builds (status) WHERE status = 'active'`);
    await q.query(`CREATE TABLE translation.catalog_entries (
      id bigserial PRIMARY KEY,
      build_id bigint NOT NULL REFERENCES translation.catalog_builds(id) ON DELETE CASCADE,
      source_lang char(2) NOT NULL,
      target_lang char(2) NOT NULL,
      key_hash bytea NOT NULL,
      key text NOT NULL,
      target text NOT NULL,
      agreement integer NOT NULL CHECK (agreement > 0),
      provenance jsonb NOT NULL CHECK (jsonb_typeof(provenance) = 'array')
    )`);
    // The lookup's index, and the one that deletes a retired build's entries.
    await q.query(`CREATE INDEX catalog_entries_lookup_idx ON translation.catalog_entries (build_id, source_lang, target_lang, key_hash)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE translation.catalog_entries`);
    await q.query(`DROP TABLE translation.catalog_builds`);
  }
}
