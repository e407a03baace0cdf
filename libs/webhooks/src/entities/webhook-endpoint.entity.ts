import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** The webhook endpoint of an account in one mode: each account has at most one for sandbox and one for live. */
@Entity({ schema: 'translation', name: 'webhook_endpoints' })
export class WebhookEndpoint {
  @PrimaryColumn({ name: 'account_id', type: 'uuid' })
  accountId: string;

  /** Receives the events of this mode's jobs only. */
  @PrimaryColumn({ type: 'boolean' })
  sandbox: boolean;

  @Column({ type: 'text' })
  url: string;

  /** `whsec_` + base64 key. Kept in clear because every delivery is signed with it; never logged. */
  @Column({ type: 'text' })
  secret: string;

  /** Set when the receiver answered 410 Gone; nothing is delivered until the URL is registered again. */
  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt: Date | null;

  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
