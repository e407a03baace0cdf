import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

export const DEFAULT_BATCH_PAGE = 20;
export const MAX_BATCH_PAGE = 100;

export class BatchListQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_BATCH_PAGE, default: DEFAULT_BATCH_PAGE, description: 'Jobs per page' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_BATCH_PAGE)
  limit?: number;

  @ApiPropertyOptional({ description: 'The `next_cursor` of the previous page, as it is; omit for the first page' })
  @IsOptional()
  @IsString()
  cursor?: string;
}
