import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A confirmation link mailed to the owner of a signed-up account. Only the token's SHA-256 is stored. */
@Entity({ schema: 'translation', name: 'console_email_verifications' })
export class EmailVerification {
  @PrimaryColumn({ name: 'token_hash', type: 'text' })
  tokenHash: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;
}
