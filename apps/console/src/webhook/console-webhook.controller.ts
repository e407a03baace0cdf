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
import { TranslationErrorDto } from '@platform/errors';
import {
  DEFAULT_DELIVERIES_PAGE,
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
import { accountMode, ModeQueryDto } from '../account-mode/mode-query.dto';
import { SessionAuth } from '../sessions/session-auth.decorator';
import { CurrentUser, Roles } from '../sessions/session.guard';
import type { SignedIn } from '../sessions/sessions.service';
import { ConsoleDeliveriesQueryDto, OptionalWebhookResponseDto } from './dtos/console-webhook.dto';

const NO_ENDPOINT = { type: TranslationErrorDto, description: 'not_found: no webhook endpoint is registered in this mode' };

/**
 * The account's webhook endpoint of a mode with the webhook service's rules: the same address
 * checks as the public API, secrets shown once, the delivery log and redelivery.
 */
@ApiTags('webhook')
@SessionAuth()
@Roles('owner', 'member')
@Controller('console/api/webhook')
export class ConsoleWebhookController {
  constructor(private readonly endpoints: WebhookEndpointService) {}

  @Get()
  @ApiOperation({ summary: "The mode's webhook endpoint, without its secret" })
  @ApiOkResponse({ type: OptionalWebhookResponseDto })
  async get(@CurrentUser() user: SignedIn, @Query() query: ModeQueryDto): Promise<OptionalWebhookResponseDto> {
    const endpoint = await this.endpoints.find(accountMode(user, query));
    return { ok: true, webhook: endpoint && WebhookViewDto.from(endpoint) };
  }

  @Put()
  @ApiOperation({
    summary: 'Register the webhook URL',
    description: 'Creating the endpoint (201) answers its signing secret, shown this once. Changing the URL (200) keeps the secret and enables a disabled endpoint.',
  })
  @ApiCreatedResponse({ type: WebhookWithSecretResponseDto, description: 'Created; `secret` is included' })
  @ApiOkResponse({ type: WebhookResponseDto, description: 'URL changed; the secret stays and is not shown' })
  @ApiUnprocessableEntityResponse({
    type: TranslationErrorDto,
    description: 'invalid_request: the URL is malformed, not http(s) (https in production), or points to a loopback, private, link-local or metadata address',
  })
  async register(
    @CurrentUser() user: SignedIn,
    @Query() query: ModeQueryDto,
    @Body() body: RegisterWebhookDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WebhookWithSecretResponseDto> {
    const { endpoint, created } = await this.endpoints.register(accountMode(user, query), body.url);
    if (!created) return { ok: true, webhook: WebhookViewDto.from(endpoint) };
    reply.status(201);
    return WebhookWithSecretResponseDto.revealing(endpoint);
  }

  @Delete()
  @ApiOperation({ summary: 'Remove the webhook endpoint', description: 'Pending retries stop; the delivery log stays.' })
  @ApiOkResponse({ type: WebhookDeletedResponseDto })
  @ApiNotFoundResponse(NO_ENDPOINT)
  async remove(@CurrentUser() user: SignedIn, @Query() query: ModeQueryDto): Promise<WebhookDeletedResponseDto> {
    await this.endpoints.remove(accountMode(user, query));
    return { ok: true };
  }

  @Post('rotate-secret')
  @HttpCode(200)
  @ApiOperation({ summary: 'Replace the signing secret', description: 'The new secret is in this answer only and signs every attempt from now on, retries of earlier events included.' })
  @ApiOkResponse({ type: WebhookWithSecretResponseDto })
  @ApiNotFoundResponse(NO_ENDPOINT)
  async rotateSecret(@CurrentUser() user: SignedIn, @Query() query: ModeQueryDto): Promise<WebhookWithSecretResponseDto> {
    const endpoint = await this.endpoints.rotateSecret(accountMode(user, query));
    return WebhookWithSecretResponseDto.revealing(endpoint);
  }

  @Get('deliveries')
  @ApiOperation({ summary: 'Delivery attempts of the mode, newest first', description: 'Status code (null when no answer came), duration and error of every attempt; follow `next_before` for older ones.' })
  @ApiOkResponse({ type: DeliveryListResponseDto })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'invalid_request: limit out of 1..100, an unknown `before` or `type`' })
  async deliveries(@CurrentUser() user: SignedIn, @Query() query: ConsoleDeliveriesQueryDto): Promise<DeliveryListResponseDto> {
    const page = await this.endpoints.listDeliveries(accountMode(user, query), { limit: query.limit ?? DEFAULT_DELIVERIES_PAGE, before: query.before, type: query.type });
    return DeliveryListResponseDto.from(page);
  }

  @Get('deliveries/:id')
  @ApiOperation({ summary: 'One delivery attempt, with what was sent and what came back', description: "The request's headers and body, the receiver's status and the first 1,024 bytes of its answer." })
  @ApiParam({ name: 'id', format: 'uuid', description: 'Id of an attempt from the delivery log' })
  @ApiOkResponse({ type: DeliveryDetailResponseDto })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: no such attempt in this account and mode' })
  async delivery(@CurrentUser() user: SignedIn, @Param('id') id: string, @Query() query: ModeQueryDto): Promise<DeliveryDetailResponseDto> {
    return DeliveryDetailResponseDto.from(await this.endpoints.getDelivery(accountMode(user, query), id));
  }

  @Post('test')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a test event', description: "A `webhook.test` event to the mode's endpoint, signed, retried and logged like any event." })
  @ApiAcceptedResponse({ type: TestEventResponseDto })
  @ApiNotFoundResponse(NO_ENDPOINT)
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'invalid_request: the endpoint is disabled' })
  async sendTestEvent(@CurrentUser() user: SignedIn, @Query() query: ModeQueryDto): Promise<TestEventResponseDto> {
    const { eventId } = await this.endpoints.sendTestEvent(accountMode(user, query));
    return { ok: true, event_id: eventId };
  }

  @Post('deliveries/:id/redeliver')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send the event of an attempt again', description: "A new series of attempts to the endpoint's current URL with its current secret; `webhook-id` stays the event's." })
  @ApiParam({ name: 'id', format: 'uuid', description: 'Id of an attempt from the delivery log' })
  @ApiAcceptedResponse({ type: RedeliveryResponseDto })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: no such attempt in this account and mode, or no endpoint registered' })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'invalid_request: the endpoint is disabled' })
  async redeliver(@CurrentUser() user: SignedIn, @Param('id') id: string, @Query() query: ModeQueryDto): Promise<RedeliveryResponseDto> {
    const { eventId } = await this.endpoints.redeliver(accountMode(user, query), id);
    return { ok: true, event_id: eventId };
  }
}
