import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RESPONSE_EXCERPT_BYTES } from '../entities/webhook-delivery.entity';
import type { WebhookEndpoint } from '../entities/webhook-endpoint.entity';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType, type WebhookPayload } from '../entities/webhook-event.entity';
import type { DeliveryPage, ListedDelivery } from '../webhook-endpoint.service';

export class WebhookViewDto {
  @ApiProperty({ example: 'https://example.com/hooks/translation' })
  url: string;

  @ApiProperty({ description: 'true after the receiver answered 410 Gone; PUT the URL again to enable it' })
  disabled: boolean;

  @ApiProperty({ type: String, nullable: true, example: null })
  disabled_reason: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: Date;

  @ApiProperty({ format: 'date-time' })
  updated_at: Date;

  static from(endpoint: WebhookEndpoint): WebhookViewDto {
    return {
      url: endpoint.url,
      disabled: endpoint.disabledAt !== null,
      disabled_reason: endpoint.disabledReason,
      created_at: endpoint.createdAt,
      updated_at: endpoint.updatedAt,
    };
  }
}

export class WebhookResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty()
  webhook: WebhookViewDto;
}

export class WebhookWithSecretDto extends WebhookViewDto {
  @ApiPropertyOptional({
    description:
      'Signing secret for Standard Webhooks verification, shown only when the endpoint is created or its secret rotated; store it now',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret?: string;
}

export class WebhookWithSecretResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty()
  webhook: WebhookWithSecretDto;

  /** The endpoint with its secret: only for the answer that created the endpoint or rotated its secret. */
  static revealing(endpoint: WebhookEndpoint): WebhookWithSecretResponseDto {
    return { ok: true, webhook: { ...WebhookViewDto.from(endpoint), secret: endpoint.secret } };
  }
}

export class WebhookDeletedResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;
}

export class DeliveryViewDto {
  @ApiProperty({ format: 'uuid', description: 'Id of this attempt' })
  id: string;

  @ApiProperty({ description: 'The event, sent as the `webhook-id` header on every attempt', example: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W' })
  event_id: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, description: "The event's type, as in the body's `type`" })
  event_type: WebhookEventType;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Attempt number within its series (a redelivery starts a new series at 1)' })
  attempt: number;

  @ApiProperty({ type: 'integer', minimum: 1, description: "The attempt's number among all attempts of its event: a redelivery's attempts go on from the ones before it" })
  number: number;

  @ApiProperty({ description: 'The URL called' })
  url: string;

  @ApiProperty({ type: 'integer', nullable: true, description: "The receiver's status; null when no answer came" })
  status_code: number | null;

  @ApiProperty({ description: 'true for a 2xx answer' })
  success: boolean;

  @ApiProperty({ type: String, nullable: true, description: 'Why the attempt failed, when the status does not say it all' })
  error: string | null;

  @ApiProperty({ type: 'integer' })
  duration_ms: number;

  @ApiProperty({ format: 'date-time' })
  created_at: Date;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the next attempt is due; null when none follows' })
  next_attempt_at: Date | null;

  @ApiProperty({ description: 'true when no further attempt follows in this series' })
  final: boolean;

  static from({ delivery, eventType, number }: ListedDelivery): DeliveryViewDto {
    return {
      id: delivery.id,
      event_id: delivery.eventId,
      event_type: eventType,
      attempt: delivery.attempt,
      number,
      url: delivery.url,
      status_code: delivery.statusCode,
      success: delivery.statusCode !== null && delivery.statusCode >= 200 && delivery.statusCode < 300,
      error: delivery.error,
      duration_ms: delivery.durationMs,
      created_at: delivery.createdAt,
      next_attempt_at: delivery.nextAttemptAt,
      final: delivery.final,
    };
  }
}

export class DeliveryRequestDto {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, nullable: true, description: 'The headers sent, with the signature headers of this attempt; null for attempts recorded before they were kept' })
  headers: Record<string, string> | null;

  @ApiProperty({ type: 'object', additionalProperties: true, description: "The body sent: the event's payload, the same on every attempt" })
  body: WebhookPayload;
}

export class DeliveryResponseExcerptDto {
  @ApiProperty({ type: 'integer', nullable: true, description: "The receiver's status; null when no answer came" })
  status_code: number | null;

  @ApiProperty({ type: String, nullable: true, description: `The first ${RESPONSE_EXCERPT_BYTES} bytes of the answer's body, as text; null when no answer came (or for attempts recorded before excerpts were kept)` })
  body_excerpt: string | null;
}

export class DeliveryDetailDto extends DeliveryViewDto {
  @ApiProperty()
  request: DeliveryRequestDto;

  @ApiProperty()
  response: DeliveryResponseExcerptDto;
}

export class DeliveryDetailResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty()
  delivery: DeliveryDetailDto;

  static from(listed: ListedDelivery & { payload: WebhookPayload }): DeliveryDetailResponseDto {
    const { delivery } = listed;
    return {
      ok: true,
      delivery: {
        ...DeliveryViewDto.from(listed),
        request: { headers: delivery.requestHeaders, body: listed.payload },
        response: { status_code: delivery.statusCode, body_excerpt: delivery.responseExcerpt },
      },
    };
  }
}

export class DeliveryListResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: [DeliveryViewDto], description: 'Newest first' })
  deliveries: DeliveryViewDto[];

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Pass as `before` for the next page; null on the last page' })
  next_before: string | null;

  static from(page: DeliveryPage): DeliveryListResponseDto {
    return { ok: true, deliveries: page.deliveries.map((delivery) => DeliveryViewDto.from(delivery)), next_before: page.nextBefore };
  }
}

export class RedeliveryResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ description: 'The event queued again' })
  event_id: string;
}

export class TestEventResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ description: 'The `webhook.test` event queued for delivery; its attempts show in the delivery log', example: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W' })
  event_id: string;
}
