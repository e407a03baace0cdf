import type { JobOptions } from 'bull';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A job waiting to be put on its Bull queue; written in the transaction that makes it due. */
@Entity({ schema: 'translation', name: 'outbox' })
export class OutboxMessage {
  /** bigserial: node-postgres returns it as a string. */
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ type: 'text' })
  queue: string;

  @Column({ name: 'job_name', type: 'text' })
  jobName: string;

  @Column({ type: 'jsonb' })
  payload: object;

  /** Bull job id; `outbox:<id>` when none is given. */
  @Column({ name: 'job_id', type: 'text', nullable: true })
  jobId: string | null;

  @Column({ type: 'jsonb' })
  options: JobOptions;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'dispatched_at', type: 'timestamptz', nullable: true })
  dispatchedAt: Date | null;

  /** Failed tries to enqueue; a growing number means Redis has been away. */
  @Column({ type: 'integer' })
  attempts: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  /** W3C trace context of the transaction that wrote the row (null without tracing); the job continues that trace. */
  @Column({ type: 'text', nullable: true })
  traceparent: string | null;

  @Column({ type: 'text', nullable: true })
  tracestate: string | null;
}
