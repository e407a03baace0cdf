import type { MailMessage } from './mailer.service';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/** A time as the console's mails give it: in UTC, so that every reader sees the same time. */
export const mailDateTime = (locale: string, date: Date) => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(date);

/** A mail whose point is one link: a first paragraph, the link with what it does, the paragraphs after it. */
export interface LinkMail {
  to: string;
  subject: string;
  lead: string;
  /** Said before the link in text, and the link's own line in HTML. */
  action: string;
  /** The link's label in HTML. */
  button: string;
  link: string;
  after: string[];
}

/** The plain-text and the simple HTML message of a mail whose point is one link. */
export function linkMail(mail: LinkMail): MailMessage {
  const text = [mail.lead, '', mail.action, mail.link, '', ...mail.after.flatMap((p) => [p, ''])].join('\n');
  const link = escapeHtml(mail.link);
  const html = [
    '<!doctype html><html lang="en"><body style="font-family:sans-serif;line-height:1.5">',
    `<p>${escapeHtml(mail.lead)}</p>`,
    `<p><a href="${link}" style="font-weight:bold">${escapeHtml(mail.button)}</a></p>`,
    `<p>${escapeHtml(mail.action)}<br>${link}</p>`,
    ...mail.after.map((p) => `<p>${escapeHtml(p)}</p>`),
    '</body></html>',
  ].join('\n');
  return { to: mail.to, subject: mail.subject, text, html };
}
