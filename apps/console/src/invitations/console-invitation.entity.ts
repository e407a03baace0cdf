import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { ConsoleRole } from '../users/console-user.entity';

/** An open (or used) invitation to become a user of an account. Only the token's SHA-256 is stored. */
@Entity({ schema: 'translation', name: 'console_invitations' })
export class ConsoleInvitation {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text' })
  role: ConsoleRole;

  /** For a reviewer: the languages they will review; empty for other roles. */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  languages: string[];

  @Column({ name: 'token_hash', type: 'text' })
  tokenHash: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;
}
