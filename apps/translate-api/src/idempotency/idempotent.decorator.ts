import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiConflictResponse, ApiHeader, ApiServiceUnavailableResponse } from '@nestjs/swagger';
import { TranslationErrorDto } from '@platform/errors';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * Makes a POST route safe to retry: requests carrying `Idempotency-Key` run at most once per
 * API key and key value, later copies get the first response. Needs the global IdempotencyModule.
 */
export const Idempotent = () =>
  applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
      description:
        'Any unique value (e.g. a UUID), 1 to 255 printable ASCII characters. Repeating a request with the same key and ' +
        'the same method, path and body within the retention period (IDEMPOTENCY_TTL_SECONDS, default 24 h) returns the ' +
        'first response again with the header `Idempotent-Replayed: true`, and nothing runs or is charged again. The same ' +
        'key with a different request: 422 `idempotency_key_reused`; an invalid key: 422 `unsupported_language`. ' +
        'Responses with status 5xx or 429 are not kept, so a retry runs afresh. Keys are scoped to the API key.',
    }),
    ApiConflictResponse({ type: TranslationErrorDto, description: 'idempotency_in_progress: the first request with this Idempotency-Key is still running' }),
    ApiServiceUnavailableResponse({
      type: TranslationErrorDto,
      description: 'service_unavailable: an Idempotency-Key was sent but the idempotency store (Redis) is unreachable; nothing ran',
    }),
  );
