import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { DeliveriesQueryDto, WebhookViewDto } from '@platform/webhooks';
import { ModeQueryDto } from '../../account-mode/mode-query.dto';

export class ConsoleDeliveriesQueryDto extends IntersectionType(ModeQueryDto, DeliveriesQueryDto) {}

export class OptionalWebhookResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: WebhookViewDto, nullable: true, description: 'null when no endpoint is registered in this mode' })
  webhook: WebhookViewDto | null;
}
