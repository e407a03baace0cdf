import { ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_DELIVERIES_PAGE } from '@platform/webhooks';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

export class DeliveriesQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_DELIVERIES_PAGE, default: 50, description: 'Attempts per page' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_DELIVERIES_PAGE)
  limit?: number;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only attempts older than this one: the `next_before` of the previous page' })
  @IsOptional()
  @IsString()
  before?: string;
}
