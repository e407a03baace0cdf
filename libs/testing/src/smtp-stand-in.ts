import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** MAIL FROM and RCPT TO of the SMTP exchange. */
  from: string;
  to: string[];
  /** The message as sent, its header lines unfolded, quoted-printable soft line breaks and escapes undone. */
  message: string;
  /** Whether the exchange was encrypted (TLS from the start or after STARTTLS). */
  secure: boolean;
  /** The user the client authenticated as, if any. */
  user?: string;
}

export interface SmtpStandIn {
  port: number;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * Enough of RFC 5322 and of quoted-printable (RFC 2045) to read a message's ASCII text: long
 * headers are folded onto several lines, and body lines broken at 76 characters.
 */
function readable(raw: string): string {
  const end = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, end).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(end).replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return headers + body;
}

/**
 * A real SMTP server on a loopback port (a free one unless `port` is given), standing in for the
 * mail provider; it accepts every message and keeps it. Without `tls` it offers neither STARTTLS
 * nor AUTH (a relay on a trusted network); with `tls` and `login` it offers STARTTLS and accepts
 * only that user and password.
 */
export async function startSmtpStandIn({
  tls,
  login,
  port = 0,
}: { tls?: { key: Buffer; cert: Buffer }; login?: { user: string; password: string }; port?: number } = {}): Promise<SmtpStandIn> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    ...(tls ?? {}),
    logger: false,
    disabledCommands: [...(tls ? [] : ['STARTTLS']), ...(login ? [] : ['AUTH'])],
    authOptional: !login,
    onAuth(auth, _session, callback) {
      const valid = login && auth.username === login.user && auth.password === login.password;
      callback(valid ? null : new Error('Invalid username or password'), valid ? { user: auth.username } : undefined);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          message: readable(Buffer.concat(chunks).toString('utf8')),
          secure: session.secure,
          user: session.user as string | undefined,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
