import type { KeyScope } from '@platform/contracts';
import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Account } from '../accounts/account.entity';
import { bigintAsNumber } from '../bigint-column';

/** An API key of an account. Only the SHA-256 of the plain key is stored. */
@Entity({ schema: 'translation', name: 'api_keys' })
export class ApiKey {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('api_keys_account_idx')
  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  /** Loaded where the account's ceilings are needed (authentication). */
  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: Account;

  @Column({ type: 'text', nullable: true })
  name: string | null;

  @Column({ name: 'key_hash', type: 'text', unique: true })
  keyHash: string;

  @Column({ name: 'key_hint', type: 'text' })
  keyHint: string;

  @Column({ type: 'boolean' })
  sandbox: boolean;

  @Column({ type: 'text', array: true })
  scopes: KeyScope[];

  @Column({ name: 'monthly_word_limit', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  monthlyWordLimit: number | null;

  @Column({ name: 'rate_limit_per_minute', type: 'integer', nullable: true })
  rateLimitPerMinute: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'regenerated_at', type: 'timestamptz', nullable: true })
  regeneratedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  /** The secret before the last regeneration, accepted until `previousKeyExpiresAt` (rolling). */
  @Column({ name: 'previous_key_hash', type: 'text', nullable: true, select: false })
  previousKeyHash: string | null;

  @Column({ name: 'previous_key_expires_at', type: 'timestamptz', nullable: true })
  previousKeyExpiresAt: Date | null;

  /** Written at most once a minute per key and process, off the request's path. */
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}
