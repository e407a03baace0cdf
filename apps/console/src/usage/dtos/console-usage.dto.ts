import { ApiProperty } from '@nestjs/swagger';
import { MODES, type Mode } from '../../account-mode/mode-query.dto';

export class UsageAmountDto {
  @ApiProperty({ type: 'integer', example: 12500 })
  words: number;

  @ApiProperty({ type: 'integer', example: 250, description: 'In cents' })
  cost_cents: number;
}

export class UsageStandingDto extends UsageAmountDto {
  @ApiProperty({ type: 'integer', nullable: true, example: 50000, description: 'Words per calendar month; null when unlimited' })
  limit: number | null;

  @ApiProperty({ type: 'integer', nullable: true, example: 37500, description: 'Words left this month (never negative); null when unlimited' })
  remaining: number | null;
}

export class KeyUsageDto extends UsageStandingDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ type: String, nullable: true })
  name: string | null;

  @ApiProperty({ enum: ['svc_test_', 'svc_live_'] })
  prefix: string;

  @ApiProperty({ description: 'Last four characters of the key', example: 'x7Qa' })
  hint: string;

  @ApiProperty()
  revoked: boolean;
}

export class UsagePeriodAmountDto extends UsageAmountDto {
  @ApiProperty({ example: '2025-03-01', description: '`YYYY-MM-DD` for a day, `YYYY-MM` for a month (UTC)' })
  period: string;
}

export class ConsoleUsageResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ enum: MODES })
  mode: Mode;

  @ApiProperty({ example: '2025-03', description: 'The current calendar month (UTC)' })
  month: string;

  @ApiProperty({
    type: UsageStandingDto,
    description: "All keys of the mode together this month, against the account's limit of the mode: the operator's ceiling (live), the sandbox quota or a lower ceiling (sandbox)",
  })
  account: UsageStandingDto;

  @ApiProperty({ type: [KeyUsageDto], description: "Each key of the mode this month, against its own limit or the account's, whichever is lower; oldest key first" })
  keys: KeyUsageDto[];

  @ApiProperty({ type: [UsagePeriodAmountDto], description: 'All keys of the mode together, per UTC day of this month up to today' })
  days: UsagePeriodAmountDto[];

  @ApiProperty({ type: [UsagePeriodAmountDto], description: 'All keys of the mode together, per calendar month: the last 12, this one included' })
  months: UsagePeriodAmountDto[];
}
