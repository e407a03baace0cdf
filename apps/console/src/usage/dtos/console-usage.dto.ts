import { ApiProperty, IntersectionType, PickType } from '@nestjs/swagger';
import { KeyViewDto } from '@platform/auth';
import { UsageFiguresDto } from '@platform/quota';
import { MODES, type Mode } from '../../account-mode/mode-query.dto';

export class UsageStandingDto extends UsageFiguresDto {
  @ApiProperty({ type: 'integer', nullable: true, example: 50000, description: 'Words per calendar month; null when unlimited' })
  limit: number | null;

  @ApiProperty({ type: 'integer', nullable: true, example: 37500, description: 'Words left this month (never negative); null when unlimited' })
  remaining: number | null;
}

/** A key as the key list shows it, with its usage this month. */
export class KeyUsageDto extends IntersectionType(PickType(KeyViewDto, ['id', 'name', 'prefix', 'hint', 'revoked'] as const), UsageStandingDto) {}

export class UsagePeriodAmountDto extends UsageFiguresDto {
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
