import { generateSecret, generateURI, verify } from 'otplib';

/** What authenticator apps list the entry under, before the user's email address. */
export const TOTP_ISSUER = 'EU Platform console';
/** RFC 6238's defaults (SHA-1, 6 digits, 30 s), the only ones every authenticator app reads. */
const PERIOD_SECONDS = 30;
export const CODE_PATTERN = /^\d{6}$/;

/** 20 random bytes in base32, as authenticator apps take them. */
export const newTotpSecret = (): string => generateSecret();

export const otpauthUri = (secret: string, email: string): string => generateURI({ issuer: TOTP_ISSUER, label: email, secret });

/**
 * The time step `code` belongs to when it is the secret's code of now or of the step before or
 * after (a phone's clock drifts), and later than `after`, the step of the last code accepted: a
 * code works once, and never after a later one. Null when it is none of these.
 */
export async function acceptedStep(secret: string, code: string, after: number | null): Promise<number | null> {
  if (!CODE_PATTERN.test(code)) return null;
  const result = await verify({ secret, token: code, epochTolerance: PERIOD_SECONDS, ...(after !== null && { afterTimeStep: after }) });
  // The TOTP strategy's result carries the step; the functional API's type also covers HOTP's.
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}
