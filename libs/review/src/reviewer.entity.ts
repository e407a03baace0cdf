import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A native speaker who answers review tasks: either with a `rvw_` token, stored only as its hash,
 * or, without a token, as a console user with the role reviewer who signs in there. A reviewer
 * of an account reviews that account's jobs only; one of no account is in the platform's pool
 * and reviews the jobs of accounts that let the pool review their language.
 */
@Entity({ schema: 'translation', name: 'reviewers' })
export class Reviewer {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text', nullable: true })
  name: string | null;

  /** Null for the operator's reviewers, the platform's pool. */
  @Column({ name: 'account_id', type: 'uuid', nullable: true })
  accountId: string | null;

  /** Target languages the reviewer answers tasks for. */
  @Column({ type: 'text', array: true })
  languages: string[];

  @Column({ name: 'token_hash', type: 'text', unique: true, nullable: true })
  tokenHash: string | null;

  @Column({ name: 'token_hint', type: 'text', nullable: true })
  tokenHint: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
