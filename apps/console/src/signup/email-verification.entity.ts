import { Entity } from 'typeorm';
import { OneTimeLink } from '../links/one-time-link.entity';

/** A confirmation link mailed to the owner of a signed-up account. */
@Entity({ schema: 'translation', name: 'console_email_verifications' })
export class EmailVerification extends OneTimeLink {}
