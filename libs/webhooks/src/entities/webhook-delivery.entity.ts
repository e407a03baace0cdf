import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Of a receiver's answer, this much is kept with the attempt (Stripe shows a receiver's answer the same way). */
export const RESPONSE_EXCERPT_BYTES = 1024;

/** One attempt to deliver an event: what was called and how it ended. */
@Entity({ schema: 'translation', name: 'webhook_deliveries' })
export class WebhookDelivery {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'event_id', type: 'text' })
  eventId: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  /** One run of the retry schedule: the first delivery of the event, or one redelivery. */
  @Column({ type: 'text' })
  series: string;

  /** 1 for the first attempt of the series. */
  @Column({ type: 'integer' })
  attempt: number;

  /** The endpoint's URL at the time of the attempt. */
  @Column({ type: 'text' })
  url: string;

  /** null when no response arrived (refused address, network error, timeout). */
  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode: number | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  /** The headers sent (the signature headers are per attempt); the body is the event's payload. */
  @Column({ name: 'request_headers', type: 'jsonb', nullable: true })
  requestHeaders: Record<string, string> | null;

  /** The first bytes of the receiver's answer, as text; null when no answer came. */
  @Column({ name: 'response_excerpt', type: 'text', nullable: true })
  responseExcerpt: string | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** When the next attempt of the series is due; null when this attempt ended the series. */
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  /** True when no further attempt follows in this series: success, permanent failure or retries used up. */
  @Column({ type: 'boolean' })
  final: boolean;
}
