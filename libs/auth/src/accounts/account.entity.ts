import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintAsNumber } from '../bigint-column';

/** A customer: owns keys, glossaries, webhook endpoints and batch jobs, each in its sandbox or live world. */
@Entity({ schema: 'translation', name: 'accounts' })
export class Account {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Unique as people read it: ignoring case, letter width (NFKC) and surrounding spaces (see ACCOUNT_NAME_KEY). */
  @Column({ type: 'text' })
  name: string;

  /** Operator's ceiling: words per calendar month of the account's keys of one mode together. */
  @Column({ name: 'monthly_word_limit', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  monthlyWordLimit: number | null;

  /** Operator's ceiling: requests per minute of the account's keys of one mode together. */
  @Column({ name: 'rate_limit_per_minute', type: 'integer', nullable: true })
  rateLimitPerMinute: number | null;

  /** Set when the operator grants production access; until then the account holds sandbox keys only. */
  @Column({ name: 'activated_at', type: 'timestamptz', nullable: true })
  activatedAt: Date | null;

  /** Languages in which the platform's pool of reviewers may review this account's live jobs, besides its own reviewers. */
  @Column({ name: 'review_pool_languages', type: 'text', array: true, default: () => "'{}'" })
  reviewPoolLanguages: string[];

  /** When the owner of a signed-up account confirmed the email address; set at creation for every other account. */
  @Column({ name: 'signup_verified_at', type: 'timestamptz', nullable: true })
  signupVerifiedAt: Date | null;

  /** When a signed-up account was cleared to hold keys (with its confirmation, or by an operator); set at creation for every other account. */
  @Column({ name: 'signup_approved_at', type: 'timestamptz', nullable: true })
  signupApprovedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
