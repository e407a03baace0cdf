import { linkMail, mailDateTime } from '../mail/link-mail';
import type { MailMessage } from '../mail/mailer.service';
import type { ConsoleRole } from '../users/console-user.entity';

export interface InvitationMailFacts {
  email: string;
  role: ConsoleRole;
  accountName: string;
  link: string;
  expiresAt: Date;
}

/** Every English string of the invitation mail, so that a translation replaces this object alone. */
export const INVITATION_MAIL_STRINGS = {
  subject: (f: { accountName: string }) => `Your invitation to the console of ${f.accountName}`,
  invited: (f: { accountName: string; role: ConsoleRole }) => `You are invited to the console of the account "${f.accountName}" as ${f.role}.`,
  action: 'Set your password here to sign in:',
  button: 'Set your password',
  expiry: (f: { expires: string }) => `The link works once, until ${f.expires} UTC. After that, ask the person who invited you for a new one.`,
  unexpected: 'If you did not expect this invitation, ignore this message: nothing happens without the link.',
  dateLocale: 'en-GB',
};

/** The plain-text and the simple HTML message of one invitation. */
export function invitationMail(facts: InvitationMailFacts): MailMessage {
  const s = INVITATION_MAIL_STRINGS;
  const expires = mailDateTime(s.dateLocale, facts.expiresAt);
  return linkMail({
    to: facts.email,
    subject: s.subject(facts),
    lead: s.invited(facts),
    action: s.action,
    button: s.button,
    link: facts.link,
    after: [s.expiry({ expires }), s.unexpected],
  });
}
