import { ApiPropertyOptional } from '@nestjs/swagger';
import { ApiError } from '@platform/errors';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import type { ApiKeyLimits } from '../api-key.service';

export const MAX_RATE_LIMIT_PER_MINUTE = 100_000;

/** Per-key limits. In a request an absent field is left as it is and `null` removes the limit. */
export class KeyLimitsDto {
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 0,
    description: 'Words per calendar month (UTC); null means no per-key limit (sandbox keys keep their test quota)',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  monthly_word_limit?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: MAX_RATE_LIMIT_PER_MINUTE,
    description: 'Requests per minute; null means the service default',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_RATE_LIMIT_PER_MINUTE)
  rate_limit_per_minute?: number | null;
}

/** The limits a PATCH asks for: 422 when it names none. */
export function requestedLimits(body: KeyLimitsDto): ApiKeyLimits {
  if (body.monthly_word_limit === undefined && body.rate_limit_per_minute === undefined) {
    throw ApiError.invalidParameter('Give monthly_word_limit and/or rate_limit_per_minute');
  }
  return { monthlyWordLimit: body.monthly_word_limit, rateLimitPerMinute: body.rate_limit_per_minute };
}
