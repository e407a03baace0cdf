import { linkMail, mailDateTime } from '../mail/link-mail';
import type { MailMessage } from '../mail/mailer.service';

export interface VerificationMailFacts {
  email: string;
  accountName: string;
  link: string;
  expiresAt: Date;
}

/** Every English string of the confirmation mail, so that a translation replaces this object alone. */
export const VERIFICATION_MAIL_STRINGS = {
  subject: (f: { accountName: string }) => `Confirm your email address for ${f.accountName}`,
  lead: (f: { accountName: string }) => `You opened the account "${f.accountName}" in the console with this address. Confirm that it is yours; the account gets its API keys after that.`,
  action: 'Confirm your address here:',
  button: 'Confirm my address',
  expiry: (f: { expires: string }) => `The link works once, until ${f.expires} UTC. After that, sign in to the console and send a new one.`,
  unexpected: 'If you did not open an account, ignore this message: without the link the account stays without keys.',
  dateLocale: 'en-GB',
};

/** The plain-text and the simple HTML message of one confirmation link. */
export function verificationMail(facts: VerificationMailFacts): MailMessage {
  const s = VERIFICATION_MAIL_STRINGS;
  return linkMail({
    to: facts.email,
    subject: s.subject(facts),
    lead: s.lead(facts),
    action: s.action,
    button: s.button,
    link: facts.link,
    after: [s.expiry({ expires: mailDateTime(s.dateLocale, facts.expiresAt) }), s.unexpected],
  });
}
