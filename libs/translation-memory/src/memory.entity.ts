import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** The name of the memory every account and mode has, created on first use; reviewers' verdicts go there. */
export const DEFAULT_MEMORY_NAME = 'default';

/** A customer's translation memory in one mode (sandbox or live): segments and their approved translations. */
@Entity({ schema: 'translation', name: 'memories' })
@Index('memories_account_idx', ['accountId', 'sandbox', 'createdAt'])
export class Memory {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  /** The mode (world) it belongs to: only keys of this mode see and use it. */
  @Column({ type: 'boolean' })
  sandbox: boolean;

  @Column({ type: 'text' })
  name: string;

  /** The one source language of its entries, or null for any. */
  @Column({ type: 'char', length: 2, nullable: true })
  source: string | null;

  @Column({ name: 'entry_count', type: 'integer' })
  entryCount: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
