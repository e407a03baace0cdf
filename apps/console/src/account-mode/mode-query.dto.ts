import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { AccountMode } from '@platform/contracts';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import type { SignedIn } from '../sessions/sessions.service';

export const MODES = ['sandbox', 'live'] as const;
export type Mode = (typeof MODES)[number];

/**
 * Which of the account's two worlds a customer route works in. Glossaries, batches, the webhook
 * and usage belong to a mode, as they do for API keys; the console shows both, one at a time.
 */
export class ModeQueryDto {
  @ApiProperty({ enum: MODES, description: "The account's world: `sandbox` (test keys) or `live`" })
  @IsIn(MODES, { message: `mode must be one of: ${MODES.join(', ')}` })
  mode: Mode;
}

export const MAX_PAGE = 100;

/** A page of a list that is short enough to count: `offset` items skipped, at most `limit` shown. */
export class OffsetPageQueryDto extends ModeQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 0, default: 0, description: 'Items to skip' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  offset?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 20, description: 'Items per page' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  limit?: number;
}

export const pageOf = ({ offset = 0, limit = 20 }: OffsetPageQueryDto) => ({ offset, limit });

/** The signed-in user's account in the mode the request names. */
export function accountMode(user: SignedIn, { mode }: ModeQueryDto): AccountMode {
  return { accountId: user.accountId, sandbox: mode === 'sandbox' };
}
