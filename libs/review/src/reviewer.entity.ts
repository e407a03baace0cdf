import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A native speaker who answers review tasks; authenticated by a `rvw_` token stored only as its hash. */
@Entity({ schema: 'translation', name: 'reviewers' })
export class Reviewer {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text', nullable: true })
  name: string | null;

  /** Target languages the reviewer answers tasks for. */
  @Column({ type: 'text', array: true })
  languages: string[];

  @Column({ name: 'token_hash', type: 'text', unique: true })
  tokenHash: string;

  @Column({ name: 'token_hint', type: 'text' })
  tokenHint: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
