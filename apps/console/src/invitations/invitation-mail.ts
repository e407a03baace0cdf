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

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/** The plain-text and the simple HTML message of one invitation, in UTC so every reader sees the same time. */
export function invitationMail(facts: InvitationMailFacts): MailMessage {
  const s = INVITATION_MAIL_STRINGS;
  const expires = new Intl.DateTimeFormat(s.dateLocale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(facts.expiresAt);
  const paragraphs = [s.invited(facts), s.expiry({ expires }), s.unexpected];
  const text = [paragraphs[0], '', s.action, facts.link, '', ...paragraphs.slice(1).flatMap((p) => [p, ''])].join('\n');
  const link = escapeHtml(facts.link);
  const html = [
    '<!doctype html><html lang="en"><body style="font-family:sans-serif;line-height:1.5">',
    `<p>${escapeHtml(paragraphs[0])}</p>`,
    `<p><a href="${link}" style="font-weight:bold">${escapeHtml(s.button)}</a></p>`,
    `<p>${escapeHtml(s.action)}<br>${link}</p>`,
    ...paragraphs.slice(1).map((p) => `<p>${escapeHtml(p)}</p>`),
    '</body></html>',
  ].join('\n');
  return { to: facts.email, subject: s.subject(facts), text, html };
}
