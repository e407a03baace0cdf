import { applyDecorators, Type } from '@nestjs/common';
import { ApiResponseOptions, ApiTooManyRequestsResponse } from '@nestjs/swagger';

/** OpenAPI description of the rate-limit fields that every authenticated response carries. */
export const RATE_LIMIT_HEADER_DOCS: NonNullable<ApiResponseOptions['headers']> = {
  'RateLimit-Policy': {
    description: 'Requests per 60 second window allowed to this key',
    schema: { type: 'string', example: '"default";q=60;w=60' },
  },
  RateLimit: {
    description: 'Requests left in the sliding 60 second window (r) and seconds until the oldest counted request leaves it (t)',
    schema: { type: 'string', example: '"default";r=59;t=60' },
  },
};

/** Documents the 429 answer of an endpoint under the per-key rate limit. */
export const ApiRateLimited = (errorType?: Type<unknown>) =>
  applyDecorators(
    ApiTooManyRequestsResponse({
      type: errorType,
      description: 'rate_limited: the key made more requests in the last 60 seconds than its limit allows',
      headers: {
        'Retry-After': { description: 'Whole seconds to wait before the next request is allowed', schema: { type: 'integer', minimum: 1 } },
        ...RATE_LIMIT_HEADER_DOCS,
      },
    }),
  );
