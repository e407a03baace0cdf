import { ApiPropertyOptional } from '@nestjs/swagger';
import { DEFAULT_DELIVERIES_PAGE, MAX_DELIVERIES_PAGE } from '../webhook-endpoint.service';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../entities/webhook-event.entity';

export class DeliveriesQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_DELIVERIES_PAGE, default: DEFAULT_DELIVERIES_PAGE, description: 'Attempts per page' })
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

  @ApiPropertyOptional({ enum: WEBHOOK_EVENT_TYPES, description: 'Only attempts to deliver events of this type' })
  @IsOptional()
  @IsIn(WEBHOOK_EVENT_TYPES)
  type?: WebhookEventType;
}
