import { Column, Entity, JoinColumn, ManyToOne } from 'typeorm';
import { OneTimeLink } from '../links/one-time-link.entity';
import { ConsoleUser } from '../users/console-user.entity';

/** A link mailed to a user who asked to choose a new password. */
@Entity({ schema: 'translation', name: 'console_password_resets' })
export class PasswordReset extends OneTimeLink {
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => ConsoleUser, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: ConsoleUser;
}
