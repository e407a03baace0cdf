import { ApiProperty } from '@nestjs/swagger';

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
