import type { DoNotTranslateTerm, Formality, TypographySettings } from '@platform/translation-pipeline';
import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** How an account wants its translations written in one mode (sandbox or live), named by requests as `style_profile`. */
@Entity({ schema: 'translation', name: 'style_profiles' })
@Index('style_profiles_account_idx', ['accountId', 'sandbox', 'createdAt'])
export class StyleProfile {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  /** The mode (world) it belongs to: only keys of this mode see and use it. */
  @Column({ type: 'boolean' })
  sandbox: boolean;

  @Column({ type: 'text' })
  name: string;

  /** The profile requests of this mode use when they name none (at most one per account and mode). */
  @Column({ name: 'is_default', type: 'boolean', default: false })
  isDefault: boolean;

  @Column({ name: 'do_not_translate', type: 'jsonb' })
  doNotTranslate: DoNotTranslateTerm[];

  /** Every rule, on or off. */
  @Column({ type: 'jsonb' })
  typography: TypographySettings;

  @Column({ type: 'text' })
  formality: Formality;

  /** Used when a request names no glossary; null again when the glossary is deleted. */
  @Column({ name: 'glossary_id', type: 'uuid', nullable: true })
  glossaryId: string | null;

  /** Used when a request names no memories; null again when the memory is deleted. */
  @Column({ name: 'memory_id', type: 'uuid', nullable: true })
  memoryId: string | null;

  /** For reviewers, shown beside each task of a job translated with the profile. */
  @Column({ type: 'text' })
  notes: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
