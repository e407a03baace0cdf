import { DefaultPort } from '@platform/contracts';
import { withPlanLimitsConfig } from '@platform/image-tokens';
import { withSandboxQuotaConfig } from '@platform/quota';
import { DatabaseRedisConfig, EnvBool, EnvInt } from '@platform/service-kit';
import { withWebhookUrlConfig } from '@platform/webhooks';
import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, Min, ValidateIf } from 'class-validator';
import { IsSmtpUrl, MAILBOX } from '../mail/smtp-settings';

/**
 * PLAN_LIMIT_*: the console shows each subscription's limit as image-api enforces it. Usage is
 * shown against the sandbox quota, and webhook URLs are checked, as translate-api does.
 */
export class ConsoleConfig extends withSandboxQuotaConfig(withWebhookUrlConfig(withPlanLimitsConfig(DatabaseRedisConfig))) {
  PORT = DefaultPort.console;

  /** Where people reach the console; invitation links start with it. */
  @Matches(/^https?:\/\/[^/\s]+(\/[^\s]*)?$/, { message: 'CONSOLE_PUBLIC_URL must be an http:// or https:// URL' })
  CONSOLE_PUBLIC_URL = 'http://localhost:3500';

  /** Whether anyone may open an account (sandbox only until an operator activates it). */
  @EnvBool() @IsBoolean()
  CONSOLE_SIGNUP = false;

  /** A session unused for this long is over; the next request needs a new sign-in. */
  @EnvInt() @IsInt() @Min(60) @Max(7 * 24 * 3600)
  CONSOLE_SESSION_IDLE_SECONDS = 30 * 60;

  /** A session is over this long after its sign-in, however busy it is. */
  @EnvInt() @IsInt() @Min(60) @Max(90 * 24 * 3600)
  CONSOLE_SESSION_ABSOLUTE_SECONDS = 12 * 3600;

  /** Wrong passwords for one email address before sign-in to it is locked for CONSOLE_SIGNIN_LOCK_SECONDS. */
  @EnvInt() @IsInt() @Min(1) @Max(1000)
  CONSOLE_SIGNIN_MAX_FAILURES = 20;

  /** Wrong passwords from one client address (for any email addresses) before that address is locked. */
  @EnvInt() @IsInt() @Min(1) @Max(100_000)
  CONSOLE_SIGNIN_MAX_FAILURES_PER_IP = 100;

  /** How long a lock lasts; failures are counted over the same window. */
  @EnvInt() @IsInt() @Min(1) @Max(24 * 3600)
  CONSOLE_SIGNIN_LOCK_SECONDS = 15 * 60;

  /** How long an invitation link can be used (once). */
  @EnvInt() @IsInt() @Min(300) @Max(30 * 24 * 3600)
  CONSOLE_INVITATION_TTL_SECONDS = 7 * 24 * 3600;

  /** Keys an account may hold that are not revoked, sandbox and live together (as translate-api's). */
  @EnvInt() @IsInt() @Min(1) @Max(10_000)
  MAX_KEYS_PER_ACCOUNT = 25;

  /** The built browser app (index.html and assets/); empty: the `web` folder beside the running bundle. */
  @IsOptional() @IsString()
  CONSOLE_WEB_DIR = '';

  /** How long a reviewer's claim on a review task, or a renewed lease, holds (as translate-api's). */
  @EnvInt() @IsInt() @Min(10) @Max(7 * 24 * 3600)
  REVIEW_LEASE_SECONDS = 900;

  /**
   * The database holding image-api's schema (`image`), for the account's image subscriptions.
   * Unset, the console has no image product: its Images calls answer 404 saying so.
   */
  @IsOptional() @Matches(/^postgres(ql)?:\/\//, { message: 'IMAGE_DATABASE_URL must be a postgres:// URL' })
  IMAGE_DATABASE_URL?: string;

  /**
   * Where invitation mail goes out: smtp://[user:password@]host[:port] (587 unless given; STARTTLS
   * when the server offers it, and required when the URL carries credentials) or smtps:// (TLS
   * from the start, 465 unless given). Unset, invitation links are only printed and answered.
   */
  @IsOptional() @IsSmtpUrl()
  SMTP_URL?: string;

  /** The From of invitation mail, `console@example.eu` or `Example Console <console@example.eu>`; required with SMTP_URL. */
  @ValidateIf((config: ConsoleConfig) => config.SMTP_URL !== undefined || config.CONSOLE_MAIL_FROM !== undefined)
  @Matches(MAILBOX, { message: 'CONSOLE_MAIL_FROM must be an address, optionally with a name ("Example Console <console@example.eu>"); SMTP_URL needs it' })
  CONSOLE_MAIL_FROM?: string;

  /** A PEM file of the certificate authorities the SMTP server's certificate is checked against, instead of the system's. */
  @IsOptional() @IsString()
  SMTP_CA_FILE?: string;
}
