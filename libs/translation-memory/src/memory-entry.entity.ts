import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { InlineCodes } from './inline-text';

export const MEMORY_ORIGINS = ['reviewer_edit', 'reviewer_approval', 'import', 'api'] as const;
export type MemoryOrigin = (typeof MEMORY_ORIGINS)[number];

/** Where an entry came from: `{job, reviewer}` for reviewers' verdicts, `{format, tool}` for imports, `{key}` for the API, `{user}` for the console. */
export type MemoryProvenance = Record<string, string | null>;

/**
 * A source segment and its translation. Both are stored masked (the engine form, ids numbered
 * in the source's order of appearance) with the originals of their codes, from which the
 * readable copy and the TMX export are made. One entry per source, language pair and memory:
 * a new translation of the same source replaces the old one.
 */
@Entity({ schema: 'translation', name: 'memory_entries' })
export class MemoryEntry {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'memory_id', type: 'uuid' })
  memoryId: string;

  @Column({ name: 'source_lang', type: 'char', length: 2 })
  sourceLang: string;

  @Column({ name: 'target_lang', type: 'char', length: 2 })
  targetLang: string;

  @Column({ name: 'source_text', type: 'text' })
  sourceText: string;

  @Column({ name: 'target_text', type: 'text' })
  targetText: string;

  @Column({ name: 'source_codes', type: 'jsonb' })
  sourceCodes: InlineCodes;

  @Column({ name: 'target_codes', type: 'jsonb' })
  targetCodes: InlineCodes;

  /** memoryKey(source_text): what fuzzy matching compares. */
  @Column({ name: 'source_key', type: 'text' })
  sourceKey: string;

  /** SHA-256 (hex) of source_key: what exact matching compares. */
  @Column({ name: 'source_hash', type: 'text' })
  sourceHash: string;

  @Column({ type: 'text' })
  origin: MemoryOrigin;

  @Column({ type: 'jsonb' })
  provenance: MemoryProvenance;

  @Column({ name: 'usage_count', type: 'integer' })
  usageCount: number;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
