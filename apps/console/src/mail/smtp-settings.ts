import { ValidateBy } from 'class-validator';
import type { SMTPTransportOptions } from 'nodemailer/lib/smtp-transport';

/** A bare address, or a display name with the address in angle brackets. */
export const MAILBOX = /^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)$/;

const SMTP_URL_RULE = 'SMTP_URL must be smtp://[user:password@]host[:port] or smtps://[user:password@]host[:port], without a path or query';

function parseSmtpUrl(value: unknown): URL | null {
  if (typeof value !== 'string' || !URL.canParse(value)) return null;
  const url = new URL(value);
  const shaped = (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '' && (url.pathname === '' || url.pathname === '/') && !url.search && !url.hash;
  return shaped ? url : null;
}

export const IsSmtpUrl = () => ValidateBy({ name: 'isSmtpUrl', validator: { validate: (value) => parseSmtpUrl(value) !== null, defaultMessage: () => SMTP_URL_RULE } });

/**
 * A send that hangs holds the owner's request (or the operator's terminal): the connection and
 * the greeting get seconds, not nodemailer's minutes, and a stalled exchange fails after 15 s.
 */
const TIMEOUTS = { connectionTimeout: 5000, greetingTimeout: 5000, socketTimeout: 15_000, dnsTimeout: 5000 };

/**
 * nodemailer's options for a validated SMTP_URL. Over smtp:// it upgrades with STARTTLS whenever
 * the server offers it; with credentials in the URL the upgrade is required, so that nobody who
 * strips STARTTLS from the greeting gets the password. Certificates are always verified.
 */
export function smtpTransportOptions(smtpUrl: string, ca?: Buffer): SMTPTransportOptions {
  const url = parseSmtpUrl(smtpUrl);
  if (!url) throw new Error(SMTP_URL_RULE);
  const user = decodeURIComponent(url.username);
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : undefined,
    secure: url.protocol === 'smtps:',
    requireTLS: url.protocol === 'smtp:' && user !== '',
    auth: user ? { user, pass: decodeURIComponent(url.password) } : undefined,
    tls: ca ? { ca } : undefined,
    ...TIMEOUTS,
  };
}

/** The password of an SMTP_URL, to be masked wherever a message might quote it. */
export const smtpPassword = (smtpUrl: string) => decodeURIComponent(parseSmtpUrl(smtpUrl)?.password ?? '');
