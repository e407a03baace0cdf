import { ApiProperty } from '@nestjs/swagger';

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
    description: "Words this key may use per month: its own limit, for sandbox keys at most the test quota; null when unlimited",
  })
  limit: number | null;

  @ApiProperty({ type: 'integer', nullable: true, example: 37500, description: 'Words left this month (never negative); null when unlimited' })
  remaining: number | null;
}
