import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A signed-in browser. Only the SHA-256 of the cookie's token is stored. */
@Entity({ schema: 'translation', name: 'console_sessions' })
export class ConsoleSession {
  @PrimaryColumn({ name: 'token_hash', type: 'text' })
  tokenHash: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  /** Sent back in the X-CSRF-Token header with every state-changing request of this session. */
  @Column({ name: 'csrf_token', type: 'text' })
  csrfToken: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_seen_at', type: 'timestamptz' })
  lastSeenAt: Date;
}
