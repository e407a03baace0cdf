import { HttpException } from '@nestjs/common';
import { TranslationErrorCode } from '@platform/contracts';

/**
 * The one exception type our code throws for client-visible failures. `code` is the
 * machine-readable error; `extra` adds documented fields (e.g. limit usage) to the body.
 */
export class ApiError extends HttpException {
  constructor(
    status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message, status);
  }

  static invalidParameter(message: string): ApiError {
    // The published contract reports every invalid parameter under this single code.
    return new ApiError(422, TranslationErrorCode.UnsupportedLanguage, message);
  }

  static notFound(message = 'Not found'): ApiError {
    return new ApiError(404, TranslationErrorCode.NotFound, message);
  }

  static payloadTooLarge(message: string): ApiError {
    return new ApiError(413, TranslationErrorCode.PayloadTooLarge, message);
  }

  /** 429 `rate_limited`, with Retry-After in whole seconds (at least one). */
  static rateLimited(message: string, retryAfterSeconds: number): ApiError {
    return new ApiError(429, TranslationErrorCode.RateLimited, message, {}, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }

  static unavailable(message: string, extra: Record<string, unknown> = {}): ApiError {
    return new ApiError(503, TranslationErrorCode.ServiceUnavailable, message, extra);
  }
}
