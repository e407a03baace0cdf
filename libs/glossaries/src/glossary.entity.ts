import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** One source term and its binding translation per target language (ISO 639-1 code -> text). */
export interface GlossaryEntry {
  term: string;
  translations: Record<string, string>;
}

/** A customer's terminology for one source language, used by translate and batches of its mode. */
@Entity({ schema: 'translation', name: 'glossaries' })
@Index('glossaries_account_idx', ['accountId', 'sandbox', 'createdAt'])
export class Glossary {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  /** The mode (world) it belongs to: only keys of this mode see and use it. */
  @Column({ type: 'boolean' })
  sandbox: boolean;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'char', length: 2 })
  source: string;

  /** Languages that at least one entry translates into, sorted. */
  @Column({ type: 'text', array: true })
  targets: string[];

  @Column({ type: 'jsonb' })
  entries: GlossaryEntry[];

  @Column({ name: 'entry_count', type: 'integer' })
  entryCount: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
