import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A user's TOTP secret: pending until a code confirms it, then what every sign-in asks for. */
@Entity({ schema: 'translation', name: 'console_second_factors' })
export class ConsoleSecondFactor {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  /** Base32, as authenticator apps take it; answered once, when enrolment starts. */
  @Column({ type: 'text' })
  secret: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** Null while the enrolment waits for its first code. */
  @Column({ name: 'confirmed_at', type: 'timestamptz', nullable: true })
  confirmedAt: Date | null;

  /** The time step of the last code accepted; a code of it or of an earlier step is refused. */
  @Column({ name: 'last_time_step', type: 'bigint', nullable: true })
  lastTimeStep: string | null;
}
