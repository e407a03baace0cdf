import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { AccountMode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { OutboxService } from '@platform/outbox';
import { isUUID } from 'class-validator';
import { Repository } from 'typeorm';
import { DeliverWebhookJob } from './deliver-webhook.job';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity';
import { WebhookEvent } from './entities/webhook-event.entity';
import { generateWebhookSecret } from './signing/webhook-signature';
import { WebhookUrlGuard, WebhookUrlRefusedError } from './url-guard/webhook-url.guard';

export const MAX_DELIVERIES_PAGE = 100;
export const DEFAULT_DELIVERIES_PAGE = 50;

export interface DeliveryPage {
  deliveries: WebhookDelivery[];
  /** Pass as `before` for the next, older page; null on the last page. */
  nextBefore: string | null;
}

const noEndpoint = ({ sandbox }: AccountMode) =>
  `No ${sandbox ? 'sandbox' : 'live'} webhook endpoint is registered; register one with PUT /api/v1/webhook`;

/**
 * An account's webhook endpoint of one mode and its delivery log, as the account manages them.
 * Sandbox and live each have their own endpoint, secret and log: a key reaches only its mode's.
 */
@Injectable()
export class WebhookEndpointService {
  constructor(
    @InjectRepository(WebhookEndpoint) private readonly endpoints: Repository<WebhookEndpoint>,
    @InjectRepository(WebhookDelivery) private readonly deliveries: Repository<WebhookDelivery>,
    private readonly guard: WebhookUrlGuard,
    private readonly outbox: OutboxService,
  ) {}

  /**
   * Points the mode's endpoint at `url`, creating it with a new secret when there is none.
   * An existing endpoint keeps its secret and is enabled again. The URL is refused with 422 when
   * it is not an http(s) URL of a public host.
   */
  async register(mode: AccountMode, url: string): Promise<{ endpoint: WebhookEndpoint; created: boolean }> {
    const { url: checked } = await this.vet(url);
    const [{ created }] = await this.endpoints.query(
      `INSERT INTO translation.webhook_endpoints (account_id, sandbox, url, secret) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id, sandbox) DO UPDATE SET url = EXCLUDED.url, disabled_at = NULL, disabled_reason = NULL, updated_at = now()
       RETURNING (xmax = 0) AS created`,
      [mode.accountId, mode.sandbox, checked.href, generateWebhookSecret()],
    );
    return { endpoint: await this.get(mode), created };
  }

  /** The mode's endpoint; null when none is registered. */
  find(mode: AccountMode): Promise<WebhookEndpoint | null> {
    return this.endpoints.findOneBy(endpointOf(mode));
  }

  async get(mode: AccountMode): Promise<WebhookEndpoint> {
    const endpoint = await this.find(mode);
    if (!endpoint) throw ApiError.notFound(noEndpoint(mode));
    return endpoint;
  }

  /** Attempts already queued find no endpoint and stop; the delivery log stays. */
  async remove(mode: AccountMode): Promise<void> {
    const { affected } = await this.endpoints.delete(endpointOf(mode));
    if (!affected) throw ApiError.notFound(noEndpoint(mode));
  }

  /** The very next attempt, retries of earlier events included, is signed with the new secret. */
  async rotateSecret(mode: AccountMode): Promise<WebhookEndpoint> {
    const { affected } = await this.endpoints.update(endpointOf(mode), { secret: generateWebhookSecret() });
    if (!affected) throw ApiError.notFound(noEndpoint(mode));
    return this.get(mode);
  }

  /** Attempts of the mode's events, newest first, older than the attempt `before` when given. */
  async listDeliveries(mode: AccountMode, { limit, before }: { limit: number; before?: string }): Promise<DeliveryPage> {
    const query = this.deliveriesOf(mode)
      .orderBy('d.created_at', 'DESC')
      .addOrderBy('d.id', 'DESC')
      .limit(limit + 1);
    if (before !== undefined) {
      if (!(await this.findDelivery(mode, before))) throw ApiError.invalidParameter(`before: no delivery ${before} in this account`);
      // Compared in SQL: timestamps have microseconds, which a JavaScript Date would cut off.
      query.andWhere('(d.created_at, d.id) < (SELECT c.created_at, c.id FROM translation.webhook_deliveries c WHERE c.id = :before)', { before });
    }
    const rows = await query.getMany();
    const deliveries = rows.slice(0, limit);
    return { deliveries, nextBefore: rows.length > limit ? deliveries[deliveries.length - 1].id : null };
  }

  /**
   * Queues the event of a recorded attempt once more: a new series of attempts with the retry
   * schedule, to the endpoint's current URL, under the same `webhook-id`.
   */
  async redeliver(mode: AccountMode, deliveryId: string): Promise<{ eventId: string }> {
    const delivery = await this.findDelivery(mode, deliveryId);
    if (!delivery) throw ApiError.notFound(`Delivery ${deliveryId} not found`);
    const endpoint = await this.get(mode);
    if (endpoint.disabledAt) {
      throw ApiError.invalidParameter(`The webhook endpoint is disabled (${endpoint.disabledReason}); register its URL again with PUT /api/v1/webhook`);
    }
    await this.endpoints.manager.transaction((manager) => this.outbox.enqueue(manager, new DeliverWebhookJob(delivery.eventId)));
    return { eventId: delivery.eventId };
  }

  private async vet(url: string) {
    try {
      return await this.guard.vet(url);
    } catch (error) {
      if (error instanceof WebhookUrlRefusedError) throw ApiError.invalidParameter(`url: ${error.message}`);
      throw error;
    }
  }

  private findDelivery(mode: AccountMode, id: string): Promise<WebhookDelivery | null> {
    return isUUID(id) ? this.deliveriesOf(mode).andWhere('d.id = :id', { id }).getOne() : Promise.resolve(null);
  }

  /** A delivery belongs to the mode of its event. */
  private deliveriesOf({ accountId, sandbox }: AccountMode) {
    return this.deliveries
      .createQueryBuilder('d')
      .innerJoin(WebhookEvent, 'e', 'e.id = d.event_id')
      .where('d.account_id = :accountId AND e.sandbox = :sandbox', { accountId, sandbox });
  }
}

/** Only the key columns: a principal passed as the mode carries more. */
function endpointOf({ accountId, sandbox }: AccountMode): Pick<WebhookEndpoint, 'accountId' | 'sandbox'> {
  return { accountId, sandbox };
}
