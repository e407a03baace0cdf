import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One recovery code of a user, as the SHA-256 of the code; spent once used. */
@Entity({ schema: 'translation', name: 'console_recovery_codes' })
export class ConsoleRecoveryCode {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  @PrimaryColumn({ name: 'code_hash', type: 'text' })
  codeHash: string;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;
}
