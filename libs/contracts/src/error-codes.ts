/** Machine-readable `error` values of the translation service's envelope `{error, message}`. */
export const TranslationErrorCode = {
  InvalidKey: 'invalid_key',
  Forbidden: 'forbidden',
  QuotaExceeded: 'quota_exceeded',
  NotFound: 'not_found',
  PayloadTooLarge: 'payload_too_large',
  UnsupportedLanguage: 'unsupported_language',
  InvalidJson: 'invalid_json',
  UnsupportedMediaType: 'unsupported_media_type',
  MethodNotAllowed: 'method_not_allowed',
  RateLimited: 'rate_limited',
  IdempotencyKeyReused: 'idempotency_key_reused',
  IdempotencyInProgress: 'idempotency_in_progress',
  HttpsRequired: 'https_required',
  ServiceUnavailable: 'service_unavailable',
  Internal: 'internal',
} as const;
export type TranslationErrorCode = (typeof TranslationErrorCode)[keyof typeof TranslationErrorCode];
