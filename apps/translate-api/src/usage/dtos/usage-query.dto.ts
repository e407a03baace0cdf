import { ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_USAGE_PERIODS, USAGE_GRANULARITIES, type UsageGranularity } from '@platform/quota';
import { IsIn, IsOptional, IsString } from 'class-validator';

/** Any of these asks for the usage history; without them GET /api/v1/usage answers this month's usage. */
export class UsageQueryDto {
  @ApiPropertyOptional({
    format: 'date',
    example: '2025-03-01',
    description: "First day (UTC) of the history; by month, its month. Default: the first day of `to`'s month (by day), the month 11 months before `to`'s (by month)",
  })
  @IsOptional()
  @IsString()
  from?: string;

  @ApiPropertyOptional({ format: 'date', example: '2025-03-31', description: 'Last day (UTC) of the history, included; by month, its month. Default: today (UTC)' })
  @IsOptional()
  @IsString()
  to?: string;

  @ApiPropertyOptional({
    enum: USAGE_GRANULARITIES,
    default: 'day',
    description: `One figure per day (at most ${MAX_USAGE_PERIODS.day} days) or per calendar month (at most ${MAX_USAGE_PERIODS.month} months)`,
  })
  @IsOptional()
  @IsIn(USAGE_GRANULARITIES, { message: `granularity must be one of: ${USAGE_GRANULARITIES.join(', ')}` })
  granularity?: UsageGranularity;
}
