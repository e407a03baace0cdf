import { Column, Entity } from 'typeorm';
import { OneTimeLink } from '../links/one-time-link.entity';
import type { ConsoleRole } from '../users/console-user.entity';

/** An open (or used) invitation to become a user of an account. */
@Entity({ schema: 'translation', name: 'console_invitations' })
export class ConsoleInvitation extends OneTimeLink {
  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text' })
  role: ConsoleRole;

  /** For a reviewer: the languages they will review; empty for other roles. */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  languages: string[];
}
