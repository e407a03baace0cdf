import type { KeyScope } from '@platform/contracts';
import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, ValueTransformer } from 'typeorm';

/** node-postgres returns bigint as a string; word limits stay far below 2^53. */
const bigintAsNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};

/** An API key of an account. Only the SHA-256 of the plain key is stored. */
@Entity({ schema: 'translation', name: 'api_keys' })
export class ApiKey {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('api_keys_account_idx')
  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

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
}
