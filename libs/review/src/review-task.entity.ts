import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export const REVIEW_TASK_STATUSES = ['pending', 'claimed', 'approved', 'edited'] as const;
export type ReviewTaskStatus = (typeof REVIEW_TASK_STATUSES)[number];

/** One sampled text of a review-tier job, waiting for (or answered by) a reviewer. */
@Entity({ schema: 'translation', name: 'review_tasks' })
@Index('review_tasks_queue_idx', ['target', 'status'])
export class ReviewTask {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'job_id', type: 'text' })
  jobId: string;

  /** Index of the text in its batch. */
  @Column({ type: 'integer' })
  idx: number;

  @Column({ type: 'text' })
  target: string;

  @Column({ name: 'source_text', type: 'text' })
  sourceText: string;

  @Column({ name: 'machine_translation', type: 'text' })
  machineTranslation: string;

  @Column({ type: 'text' })
  status: ReviewTaskStatus;

  @Column({ name: 'reviewer_id', type: 'uuid', nullable: true })
  reviewerId: string | null;

  /** A claim counts until then; afterwards the task is back in the pool. */
  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true })
  leaseUntil: Date | null;

  @Column({ name: 'verdict_translation', type: 'text', nullable: true })
  verdictTranslation: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'answered_at', type: 'timestamptz', nullable: true })
  answeredAt: Date | null;
}
