import { TranslationErrorCode as Code } from '@platform/contracts';
import type { ErrorEnvelope } from '@platform/errors';

/**
 * LibreTranslate's statuses for our errors: a missing or bad key is 403, a bad parameter and an
 * over-long request 400. An exhausted quota is 403 too: like a key without rights, retrying
 * does not help.
 */
const STATUS: Record<string, number> = {
  [Code.InvalidKey]: 403,
  [Code.QuotaExceeded]: 403,
  [Code.UnsupportedLanguage]: 400,
  [Code.InvalidJson]: 400,
  [Code.PayloadTooLarge]: 400,
  [Code.IdempotencyKeyReused]: 400,
};

/** LibreTranslate's error body: `{"error": message}`. */
export const libreTranslateEnvelope: ErrorEnvelope = {
  status: ({ code, status }) => STATUS[code] ?? status,
  render: ({ message }) => ({ error: message }),
};
