import { TranslationErrorCode as Code } from '@platform/contracts';
import { vendorEnvelope } from '../vendor-envelope';

/**
 * LibreTranslate's statuses for our errors (a missing or bad key is 403, a bad parameter and an
 * over-long request 400; an exhausted quota is 403 too, as retrying does not help) and its body,
 * `{"error": message}`.
 */
export const libreTranslateEnvelope = vendorEnvelope(
  {
    [Code.InvalidKey]: 403,
    [Code.QuotaExceeded]: 403,
    [Code.UnsupportedLanguage]: 400,
    [Code.InvalidJson]: 400,
    [Code.PayloadTooLarge]: 400,
    [Code.IdempotencyKeyReused]: 400,
  },
  ({ message }) => ({ error: message }),
);
