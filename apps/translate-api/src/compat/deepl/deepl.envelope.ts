import { TranslationErrorCode as Code } from '@platform/contracts';
import { vendorEnvelope } from '../vendor-envelope';

/**
 * DeepL's statuses for our errors (a bad key is 403, an exhausted quota 456, a bad parameter
 * 400) and its body, `{"message": ...}`, with our code as `detail` for support requests.
 */
export const deeplEnvelope = vendorEnvelope(
  {
    [Code.InvalidKey]: 403,
    [Code.QuotaExceeded]: 456,
    [Code.UnsupportedLanguage]: 400,
    [Code.InvalidJson]: 400,
    [Code.IdempotencyKeyReused]: 400,
  },
  ({ code, message }) => ({ message, detail: code }),
);
