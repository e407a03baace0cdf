import { DefaultPort } from '@platform/contracts';
import { withPlanLimitsConfig } from '@platform/image-tokens';
import { withSandboxQuotaConfig } from '@platform/quota';
import { DatabaseRedisConfig, EnvBool, EnvInt } from '@platform/service-kit';
import { withWebhookUrlConfig } from '@platform/webhooks';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, ValidateBy, ValidateIf } from 'class-validator';
import { IsSmtpUrl, MAILBOX } from '../mail/smtp-settings';

/** Sign-up in production mails each new owner a confirmation link: it cannot go without a mail server. */
const MailsInProduction = () =>
  ValidateBy({
    name: 'mailsInProduction',
    validator: {
      validate: (signup: unknown, args) => {
        const config = args?.object as ConsoleConfig;
        return signup !== true || config.NODE_ENV !== 'production' || config.SMTP_URL !== undefined;
      },
      defaultMessage: () => 'CONSOLE_SIGNUP=true in production needs SMTP_URL (and CONSOLE_MAIL_FROM): every new account is confirmed through a mailed link',
    },
  });

/** An address only a browser on the console's own machine reaches. */
export const isLocalUrl = (url: string) => /^https?:\/\/(localhost|127\.|\[::1\])/i.test(url);

/**
 * In production, invitation and confirmation links go to people on other machines: they must
 * start with the https address those people reach, never the localhost default.
 */
const PublicInProduction = () =>
  ValidateBy({
    name: 'publicInProduction',
    validator: {
      validate: (url: unknown, args) =>
        (args?.object as ConsoleConfig).NODE_ENV !== 'production' || (typeof url === 'string' && /^https:\/\//.test(url) && !isLocalUrl(url)),
      defaultMessage: () => 'CONSOLE_PUBLIC_URL in production must be the https:// address people reach the console at (invitation and confirmation links start with it), not localhost',
    },
  });

/**
 * PLAN_LIMIT_*: the console shows each subscription's limit as image-api enforces it. Usage is
 * shown against the sandbox quota, and webhook URLs are checked, as translate-api does.
 */
export class ConsoleConfig extends withSandboxQuotaConfig(withWebhookUrlConfig(withPlanLimitsConfig(DatabaseRedisConfig))) {
  PORT = DefaultPort.console;

  /** Where people reach the console; invitation and confirmation links start with it. */
  @Matches(/^https?:\/\/[^/\s]+(\/[^\s]*)?$/, { message: 'CONSOLE_PUBLIC_URL must be an http:// or https:// URL' })
  @PublicInProduction()
  CONSOLE_PUBLIC_URL = 'http://localhost:3500';

  /**
   * Whether anyone may open an account (sandbox only until an operator activates it). A signed-up
   * account holds no key until its owner confirms the email address through a mailed link, so in
   * production it needs SMTP_URL; elsewhere, without it, the link goes to the log.
   */
  @EnvBool() @IsBoolean() @MailsInProduction()
  CONSOLE_SIGNUP = false;

  /** manual: a confirmed sign-up also waits for an operator (`admin account:approve`) before it holds keys. */
  @IsIn(['automatic', 'manual'])
  CONSOLE_SIGNUP_APPROVAL: 'automatic' | 'manual' = 'automatic';

  /** Sign-ups one client address may start per day (a window of 24 hours from its first). */
  @EnvInt() @IsInt() @Min(1) @Max(1000)
  CONSOLE_SIGNUPS_PER_IP_PER_DAY = 3;

  /** Sign-ups all client addresses together may start per hour (a window of an hour from the first). */
  @EnvInt() @IsInt() @Min(1) @Max(1_000_000)
  CONSOLE_SIGNUPS_PER_HOUR = 60;

  /** How long a sign-up's confirmation link can be used (once). */
  @EnvInt() @IsInt() @Min(300) @Max(30 * 24 * 3600)
  CONSOLE_VERIFICATION_TTL_SECONDS = 2 * 24 * 3600;

  /** Confirmation mails one account may be sent per day, the first one at sign-up included. */
  @EnvInt() @IsInt() @Min(1) @Max(100)
  CONSOLE_VERIFICATION_MAILS_PER_DAY = 5;

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

  /** How long a password reset link can be used (once); a newer one replaces it sooner. */
  @EnvInt() @IsInt() @Min(300) @Max(24 * 3600)
  CONSOLE_PASSWORD_RESET_TTL_SECONDS = 3600;

  /** Reset links one email address may be asked for per hour, whether or not it has a user. */
  @EnvInt() @IsInt() @Min(1) @Max(100)
  CONSOLE_PASSWORD_RESETS_PER_EMAIL_PER_HOUR = 3;

  /** Reset links one client address may ask for per hour, for any email addresses. */
  @EnvInt() @IsInt() @Min(1) @Max(100_000)
  CONSOLE_PASSWORD_RESETS_PER_IP_PER_HOUR = 20;

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
   * from the start, 465 unless given). Unset, invitation links are only printed and answered,
   * sign-up confirmation links only logged (outside production), and password reset links not
   * made at all.
   */
  @IsOptional() @IsSmtpUrl()
  SMTP_URL?: string;

  /** The From of the console's mail, `console@example.eu` or `Example Console <console@example.eu>`; required with SMTP_URL. */
  @ValidateIf((config: ConsoleConfig) => config.SMTP_URL !== undefined || config.CONSOLE_MAIL_FROM !== undefined)
  @Matches(MAILBOX, { message: 'CONSOLE_MAIL_FROM must be an address, optionally with a name ("Example Console <console@example.eu>"); SMTP_URL needs it' })
  CONSOLE_MAIL_FROM?: string;

  /** A PEM file of the certificate authorities the SMTP server's certificate is checked against, instead of the system's. */
  @IsOptional() @IsString()
  SMTP_CA_FILE?: string;
}
