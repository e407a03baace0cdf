import { Reviewer } from '@platform/review';
import { Column, CreateDateColumn, Entity, JoinColumn, OneToOne, PrimaryGeneratedColumn } from 'typeorm';

export const CONSOLE_ROLES = ['owner', 'member', 'reviewer'] as const;
/** owner: everything of the account, users included; member: keys and the account's work; reviewer: review work only. */
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

/** A person who signs in to the console, on behalf of one account. */
@Entity({ schema: 'translation', name: 'console_users' })
export class ConsoleUser {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  /** Lower-cased; unique over all accounts, as it is what a person signs in with. */
  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text' })
  role: ConsoleRole;

  /** `scrypt$N$r$p$salt$hash` (see password-hash.ts), never the password. */
  @Column({ name: 'password_hash', type: 'text' })
  passwordHash: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /**
   * The reviewer record this user claims and answers review tasks as: created when the user
   * first gets the role reviewer, kept (languages and all) if the role changes and comes back.
   */
  @Column({ name: 'reviewer_id', type: 'uuid', nullable: true })
  reviewerId: string | null;

  @OneToOne(() => Reviewer, { nullable: true })
  @JoinColumn({ name: 'reviewer_id' })
  reviewer?: Reviewer | null;
}
