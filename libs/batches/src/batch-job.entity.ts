import type { AppliedStyleProfile } from '@platform/style-profiles';
import type { GlossaryTerms, MissingHandling, TranslationFormat, TranslationTier } from '@platform/translation-pipeline';
import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, ValueTransformer } from 'typeorm';

export const BATCH_STATUSES = ['processing', 'done', 'failed'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** node-postgres returns bigint as a string; word counts stay far below 2^53. */
const bigintAsNumber: ValueTransformer = {
  to: (value: number | undefined) => value,
  from: (value: string) => Number(value),
};

/** A batch submitted through POST /api/v1/batches; its texts are `BatchText` rows. */
@Entity({ schema: 'translation', name: 'batch_jobs' })
@Index('batch_jobs_expiry_idx', ['status', 'expiresAt'])
@Index('batch_jobs_listing_idx', ['accountId', 'sandbox', 'createdAt', 'id'])
export class BatchJob {
  /** `job_` + 24 random base62 characters: the id alone grants no access, but is not guessable either. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  /** The key that submitted the job and was charged for it. */
  @Column({ name: 'key_id', type: 'uuid' })
  keyId: string;

  @Column({ type: 'text' })
  status: BatchStatus;

  /** The given source language; null when each chunk's was detected at submission. */
  @Column({ type: 'text', nullable: true })
  source: string | null;

  @Column({ type: 'text' })
  target: string;

  @Column({ type: 'text' })
  format: TranslationFormat;

  /** Format html: whether text attributes are translated (counted at submission, so the worker must agree). */
  @Column({ name: 'html_attributes', type: 'boolean', default: true })
  htmlAttributes: boolean;

  @Column({ type: 'text' })
  tier: TranslationTier;

  /**
   * The mode (world) of the job, the submitting key's: only keys of this mode see it, its
   * webhook goes to this mode's endpoint, and its review (tier review) is simulated in sandbox.
   */
  @Column({ type: 'boolean' })
  sandbox: boolean;

  /**
   * Tier review: whether the platform's reviewer pool may review the job besides the account's
   * own reviewers, as the account had chosen for the target language at submission.
   */
  @Column({ name: 'review_pool', type: 'boolean', default: false })
  reviewPool: boolean;

  /** `keep`: texts of pairs no engine does were accepted; what no memory translated stays as sent (see BatchText.plan). */
  @Column({ type: 'text', nullable: true })
  missing: MissingHandling | null;

  /** The glossary's terms as they were at submission, so later edits cannot change a running job. */
  @Column({ type: 'jsonb', nullable: true })
  glossary: GlossaryTerms | null;

  /** The style profile as it was at submission (named, or the mode's default): the worker applies what was charged. */
  @Column({ name: 'style_profile', type: 'jsonb', nullable: true })
  styleProfile: AppliedStyleProfile | null;

  /** With the profile's formality: the engines that translated texts of the job with it, as the steps were stored. */
  @Column({ name: 'formality_applied_by', type: 'text', array: true, default: () => "'{}'" })
  formalityAppliedBy: string[];

  /** And those that translated texts of it without, since they cannot be told. */
  @Column({ name: 'formality_ignored_by', type: 'text', array: true, default: () => "'{}'" })
  formalityIgnoredBy: string[];

  @Column({ type: 'integer' })
  total: number;

  @Column({ name: 'done_count', type: 'integer' })
  doneCount: number;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  words: number;

  @Column({ name: 'cost_cents', type: 'bigint', transformer: bigintAsNumber })
  costCents: number;

  /** Why a failed job failed, in words fit for the customer. */
  @Column({ type: 'text', nullable: true })
  error: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  /** completed_at + 30 days; the job and its texts are deleted after it. */
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  /** When the job last moved: accepted, a chunk stored, queued again. The reconciler goes by it. */
  @Column({ name: 'progress_at', type: 'timestamptz', default: () => 'now()' })
  progressAt?: Date;

  /** Times the job was queued again (a worker stopped, a lost queue entry); its Bull job is `batch:<id>:<requeues>`. */
  @Column({ type: 'integer', default: 0 })
  requeues?: number;

  /** Of those, the times the reconciler had to queue it because its queue entry was gone. */
  @Column({ type: 'integer', default: 0 })
  recoveries?: number;
}
