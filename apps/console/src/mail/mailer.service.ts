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
    // Read at start, so a missing or unreadable CA file stops the service instead of every send.
    const ca = config.SMTP_CA_FILE ? readFileSync(config.SMTP_CA_FILE) : undefined;
    this.transport = config.SMTP_URL ? createTransport(smtpTransportOptions(config.SMTP_URL, ca), { from: config.CONSOLE_MAIL_FROM }) : null;
    this.password = config.SMTP_URL ? smtpPassword(config.SMTP_URL) : '';
  }

  /** Whether SMTP_URL is set; without it nothing is mailed. */
  get enabled(): boolean {
    return this.transport !== null;
  }

  async send(message: MailMessage): Promise<MailOutcome> {
    if (!this.transport) return { sent: false, reason: 'no SMTP_URL is set' };
    try {
      await this.transport.sendMail(message);
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
