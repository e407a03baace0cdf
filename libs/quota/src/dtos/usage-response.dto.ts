import { ApiProperty } from '@nestjs/swagger';
import { USAGE_GRANULARITIES, type UsageGranularity } from '../usage-history.service';

/** The account's figures in the calling key's mode: all its sandbox keys, or all its live keys, together. */
export class AccountUsageDto {
  @ApiProperty({ enum: ['sandbox', 'live'], description: 'The mode of the calling key, whose keys these figures add up' })
  mode: 'sandbox' | 'live';

  @ApiProperty({ type: 'integer', example: 30500, description: "Words charged to the account's keys of this mode this month" })
  words: number;

  @ApiProperty({ type: 'integer', example: 610, description: "Cost charged to the account's keys of this mode this month, in cents" })
  cost_cents: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 50000,
    description: "Words the account's keys of this mode may use together per month: the operator's ceiling (live), the sandbox quota or a lower ceiling (sandbox); null when unlimited",
  })
  limit: number | null;

  @ApiProperty({ type: 'integer', nullable: true, example: 19500, description: 'Words left this month (never negative); null when unlimited' })
  remaining: number | null;
}

export class UsageResponseDto {
  @ApiProperty({ example: true })
  ok: true;

  @ApiProperty({ example: '2025-03', pattern: '^\\d{4}-\\d{2}$', description: 'The current calendar month (UTC)' })
  month: string;

  @ApiProperty({ type: 'integer', example: 12500, description: 'Words charged to this key this month' })
  words: number;

  @ApiProperty({ type: 'integer', example: 250, description: 'Cost charged to this key this month, in cents' })
  cost_cents: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 50000,
    description: "Words this key may use per month: its own limit or its account's (`account.limit`), whichever is lower; null when unlimited",
  })
  limit: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 19500,
    description: "Words this key can still use this month, within its own limit and what its account has left (never negative); null when unlimited",
  })
  remaining: number | null;

  @ApiProperty({ type: AccountUsageDto })
  account: AccountUsageDto;
}

export class UsageFiguresDto {
  @ApiProperty({ type: 'integer', example: 30500 })
  words: number;

  @ApiProperty({ type: 'integer', example: 610, description: 'In cents' })
  cost_cents: number;
}

export class AccountUsageFiguresDto extends UsageFiguresDto {
  @ApiProperty({ enum: ['sandbox', 'live'], description: 'The mode of the calling key, whose keys these figures add up' })
  mode: 'sandbox' | 'live';
}

export class UsagePeriodDto extends UsageFiguresDto {
  @ApiProperty({ example: '2025-03-01', description: '`YYYY-MM-DD` (granularity day) or `YYYY-MM` (granularity month), UTC' })
  period: string;

  @ApiProperty({ type: UsageFiguresDto, description: "All the account's keys of the calling key's mode, this key included" })
  account: UsageFiguresDto;
}

export class UsageHistoryResponseDto {
  @ApiProperty({ example: true })
  ok: true;

  @ApiProperty({ enum: USAGE_GRANULARITIES })
  granularity: UsageGranularity;

  @ApiProperty({ format: 'date', example: '2025-03-01', description: 'First day of the first period' })
  from: string;

  @ApiProperty({ format: 'date', example: '2025-03-31', description: 'Last day of the last period' })
  to: string;

  @ApiProperty({ type: 'integer', example: 12500, description: 'Words charged to this key in the range, refunds taken off' })
  words: number;

  @ApiProperty({ type: 'integer', example: 250, description: 'Cost charged to this key in the range, in cents, refunds taken off' })
  cost_cents: number;

  @ApiProperty({ type: AccountUsageFiguresDto, description: "The same for all the account's keys of the calling key's mode" })
  account: AccountUsageFiguresDto;

  @ApiProperty({ type: [UsagePeriodDto], description: 'Every period of the range in order, zero where nothing was charged' })
  periods: UsagePeriodDto[];
}
