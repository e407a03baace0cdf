import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** `webhook.test`: sent on request (Send test event), so that a receiver can be checked without a batch. */
export const WEBHOOK_EVENT_TYPES = ['batch.completed', 'webhook.test'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What receivers get as the request body; frozen when the event is published. */
export interface WebhookPayload {
  type: WebhookEventType;
  /** When the event happened (ISO 8601); unlike the `webhook-timestamp` header, the same on every attempt. */
  timestamp: string;
  data: object;
}

/** An event for an account's endpoint of one mode. Its id is the `webhook-id` of every attempt to deliver it. */
@Entity({ schema: 'translation', name: 'webhook_events' })
export class WebhookEvent {
  /** `msg_` + random base62. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  /** The mode of what it reports: delivered to that mode's endpoint, listed (with its deliveries) to that mode's keys. */
  @Column({ type: 'boolean' })
  sandbox: boolean;

  @Column({ type: 'text' })
  type: WebhookEventType;

  @Column({ type: 'jsonb' })
  payload: WebhookPayload;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
