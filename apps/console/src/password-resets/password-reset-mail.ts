import { linkMail, mailDateTime } from '../mail/link-mail';
import type { MailMessage } from '../mail/mailer.service';

export interface PasswordResetMailFacts {
  email: string;
  link: string;
  expiresAt: Date;
}

/** Every English string of the password reset mail, so that a translation replaces this object alone. */
export const PASSWORD_RESET_MAIL_STRINGS = {
  subject: 'Choose a new password for the console',
  lead: (f: { email: string }) => `Someone asked to reset the password of the console user ${f.email}. If it was you, choose a new password with the link below.`,
  action: 'Choose a new password here:',
  button: 'Choose a new password',
  expiry: (f: { expires: string }) => `The link works once, until ${f.expires} UTC. After that, ask for a new one on the sign-in page.`,
  unexpected: 'If you did not ask for this, ignore this message: your password stays as it is.',
  dateLocale: 'en-GB',
};

/** The plain-text and the simple HTML message of one reset link. */
export function passwordResetMail(facts: PasswordResetMailFacts): MailMessage {
  const s = PASSWORD_RESET_MAIL_STRINGS;
  return linkMail({
    to: facts.email,
    subject: s.subject,
    lead: s.lead(facts),
    action: s.action,
    button: s.button,
    link: facts.link,
    after: [s.expiry({ expires: mailDateTime(s.dateLocale, facts.expiresAt) }), s.unexpected],
  });
}
