import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { ApiKeyAuth, CurrentApiKey, RequireScope } from '@platform/auth';
import type { ApiKeyPrincipal } from '@platform/contracts';
import { TranslationErrorDto } from '@platform/errors';
import { ApiRateLimited, RATE_LIMIT_HEADER_DOCS } from '@platform/quota';
import {
  DEFAULT_DELIVERIES_PAGE,
  DeliveriesQueryDto,
  DeliveryDetailResponseDto,
  DeliveryListResponseDto,
  RedeliveryResponseDto,
  RegisterWebhookDto,
  TestEventResponseDto,
  WebhookDeletedResponseDto,
  WebhookEndpointService,
  WebhookResponseDto,
  WebhookViewDto,
  WebhookWithSecretResponseDto,
} from '@platform/webhooks';
import type { FastifyReply } from 'fastify';

const NO_ENDPOINT = { type: TranslationErrorDto, description: "not_found: no webhook endpoint is registered in the key's mode" };

@ApiTags('webhook')
@ApiKeyAuth()
@RequireScope('manage')
@ApiRateLimited(TranslationErrorDto)
@Controller('api/v1/webhook')
export class WebhooksController {
  constructor(private readonly endpoints: WebhookEndpointService) {}

  @Put()
  @ApiOperation({
    summary: 'Register the webhook URL',
    description:
      'One endpoint per account and mode: sandbox keys manage the sandbox endpoint, which receives the events of sandbox jobs only; ' +
      'live keys the live one. Creating it (201) answers the signing secret `whsec_...`, shown this once. Changing the URL ' +
      '(200) keeps the secret and enables a disabled endpoint. Deliveries are signed per Standard Webhooks: headers ' +
      '`webhook-id`, `webhook-timestamp`, `webhook-signature`.',
  })
  @ApiCreatedResponse({ type: WebhookWithSecretResponseDto, description: 'Created; `secret` is included', headers: RATE_LIMIT_HEADER_DOCS })
  @ApiOkResponse({ type: WebhookResponseDto, description: 'URL changed; the secret stays and is not shown', headers: RATE_LIMIT_HEADER_DOCS })
  @ApiUnprocessableEntityResponse({
    type: TranslationErrorDto,
    description:
      'unsupported_language: the URL is malformed, not http(s), or points to a loopback, private, link-local or metadata address. ' +
      'A host name that resolves to such an address, or to none, is refused without saying what it resolves to.',
  })
  async register(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @Body() body: RegisterWebhookDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WebhookWithSecretResponseDto> {
    const { endpoint, created } = await this.endpoints.register(key, body.url);
    if (!created) return { ok: true, webhook: WebhookViewDto.from(endpoint) };
    reply.status(201);
    return WebhookWithSecretResponseDto.revealing(endpoint);
  }

  @Get()
  @ApiOperation({ summary: 'The webhook endpoint', description: 'Without its secret.' })
  @ApiOkResponse({ type: WebhookResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiNotFoundResponse(NO_ENDPOINT)
  async get(@CurrentApiKey() key: ApiKeyPrincipal): Promise<WebhookResponseDto> {
    return { ok: true, webhook: WebhookViewDto.from(await this.endpoints.get(key)) };
  }

  @Delete()
  @ApiOperation({ summary: 'Remove the webhook endpoint', description: 'Pending retries stop; the delivery log stays.' })
  @ApiOkResponse({ type: WebhookDeletedResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiNotFoundResponse(NO_ENDPOINT)
  async remove(@CurrentApiKey() key: ApiKeyPrincipal): Promise<WebhookDeletedResponseDto> {
    await this.endpoints.remove(key);
    return { ok: true };
  }

  @Post('rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Replace the signing secret',
    description: 'The new secret is shown this once and signs every attempt from now on, retries of earlier events included.',
  })
  @ApiOkResponse({ type: WebhookWithSecretResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiNotFoundResponse(NO_ENDPOINT)
  async rotateSecret(@CurrentApiKey() key: ApiKeyPrincipal): Promise<WebhookWithSecretResponseDto> {
    const endpoint = await this.endpoints.rotateSecret(key);
    return WebhookWithSecretResponseDto.revealing(endpoint);
  }

  @Get('deliveries')
  @ApiOperation({
    summary: 'Delivery attempts',
    description:
      "Every attempt to deliver an event of the key's mode (sandbox or live), newest first. An event is tried once and retried up to five times with " +
      'growing pauses (about 5 s, 5 min, 30 min, 2 h, 5 h) until the receiver answers 2xx; a Retry-After is honoured. ' +
      'A 4xx other than 408 and 429 ends the attempts; 410 also disables the endpoint.',
  })
  @ApiOkResponse({ type: DeliveryListResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'unsupported_language: limit out of 1..100, an unknown `before` or `type`' })
  async deliveries(@CurrentApiKey() key: ApiKeyPrincipal, @Query() query: DeliveriesQueryDto): Promise<DeliveryListResponseDto> {
    return DeliveryListResponseDto.from(await this.endpoints.listDeliveries(key, { limit: query.limit ?? DEFAULT_DELIVERIES_PAGE, before: query.before, type: query.type }));
  }

  @Get('deliveries/:id')
  @ApiOperation({
    summary: 'One delivery attempt, with what was sent and what came back',
    description: "The request's headers (with this attempt's signature) and body, and the receiver's status with the first 1,024 bytes of its answer.",
  })
  @ApiParam({ name: 'id', format: 'uuid', description: 'Id of an attempt from the deliveries list' })
  @ApiOkResponse({ type: DeliveryDetailResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: "not_found: no such attempt in the key's account and mode" })
  async delivery(@CurrentApiKey() key: ApiKeyPrincipal, @Param('id') id: string): Promise<DeliveryDetailResponseDto> {
    return DeliveryDetailResponseDto.from(await this.endpoints.getDelivery(key, id));
  }

  @Post('test')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Send a test event',
    description:
      "Queues a `webhook.test` event to the key's mode's endpoint: signed, retried and logged like any event, so a receiver can be checked without a batch. " +
      'Its body is `{"type":"webhook.test","timestamp":…,"data":{"message":…}}`; receivers should answer 2xx and may ignore types they do not know.',
  })
  @ApiAcceptedResponse({ type: TestEventResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiNotFoundResponse(NO_ENDPOINT)
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'unsupported_language: the endpoint is disabled' })
  async sendTestEvent(@CurrentApiKey() key: ApiKeyPrincipal): Promise<TestEventResponseDto> {
    const { eventId } = await this.endpoints.sendTestEvent(key);
    return { ok: true, event_id: eventId };
  }

  @Post('deliveries/:id/redeliver')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Send the event of an attempt again',
    description: "A new series of attempts, with retries, to the endpoint's current URL and with its current secret; `webhook-id` stays the event's.",
  })
  @ApiParam({ name: 'id', format: 'uuid', description: 'Id of an attempt from the deliveries list' })
  @ApiAcceptedResponse({ type: RedeliveryResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: "not_found: no such attempt in this account and mode, or no endpoint registered in the key's mode" })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'unsupported_language: the endpoint is disabled' })
  async redeliver(@CurrentApiKey() key: ApiKeyPrincipal, @Param('id') id: string): Promise<RedeliveryResponseDto> {
    const { eventId } = await this.endpoints.redeliver(key, id);
    return { ok: true, event_id: eventId };
  }
}
