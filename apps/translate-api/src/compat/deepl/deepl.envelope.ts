import { TranslationErrorCode as Code } from '@platform/contracts';
import type { ErrorEnvelope } from '@platform/errors';

/** DeepL's statuses for our errors: a bad key is 403, an exhausted quota 456, a bad parameter 400. */
const STATUS: Record<string, number> = {
  [Code.InvalidKey]: 403,
  [Code.QuotaExceeded]: 456,
  [Code.UnsupportedLanguage]: 400,
  [Code.InvalidJson]: 400,
  [Code.IdempotencyKeyReused]: 400,
};

/** DeepL's error body, `{"message": ...}`, with our code as `detail` for support requests. */
export const deeplEnvelope: ErrorEnvelope = {
  status: ({ code, status }) => STATUS[code] ?? status,
  render: ({ code, message }) => ({ message, detail: code }),
};
