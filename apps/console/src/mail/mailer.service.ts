import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { createTransport, type Transporter } from 'nodemailer';
import { ConsoleConfig } from '../config/console.config';
import { smtpPassword, smtpTransportOptions } from './smtp-settings';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Read at start, so that a missing or unreadable CA file stops the service instead of failing every send. */
function readCa(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new Error(`SMTP_CA_FILE ${file} cannot be read: ${(error as Error).message}`);
  }
}

/** What became of a message: handed to the SMTP server, or not and why (never with the SMTP password). */
export type MailOutcome = { sent: true } | { sent: false; reason: string };

/**
 * Sends the console's mail through SMTP_URL, one connection per message (invitations are rare).
 * A failed send is an answer, not an exception: what the mail was about has happened anyway.
 */
@Injectable()
export class Mailer implements OnModuleDestroy {
  private readonly logger = new Logger(Mailer.name);
  private readonly transport: Transporter | null;
  private readonly password: string;

  constructor(config: ConsoleConfig) {
    this.password = config.SMTP_URL ? smtpPassword(config.SMTP_URL) : '';
    this.transport = config.SMTP_URL
      ? createTransport(smtpTransportOptions(config.SMTP_URL, config.SMTP_CA_FILE ? readCa(config.SMTP_CA_FILE) : undefined), { from: config.CONSOLE_MAIL_FROM })
      : null;
  }

  /** Whether SMTP_URL is set; without it nothing is mailed. */
  get enabled(): boolean {
    return this.transport !== null;
  }

  async send(message: MailMessage): Promise<MailOutcome> {
    if (!this.transport) return { sent: false, reason: 'no SMTP_URL is set' };
    try {
      // An address object, not text: nodemailer would read a text `to` as a list of addresses.
      await this.transport.sendMail({ ...message, to: { name: '', address: message.to } });
      return { sent: true };
    } catch (error) {
      const reason = this.withoutPassword(error instanceof Error ? error.message : String(error));
      this.logger.warn({ msg: 'mail not sent', subject: message.subject, reason });
      return { sent: false, reason };
    }
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }

  private withoutPassword(text: string): string {
    return this.password ? text.split(this.password).join('***') : text;
  }
}
