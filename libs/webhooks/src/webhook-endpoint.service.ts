import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { AccountMode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { OutboxService } from '@platform/outbox';
import { isUUID } from 'class-validator';
import { Repository, SelectQueryBuilder } from 'typeorm';
import { DeliverWebhookJob } from './deliver-webhook.job';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity';
import { WebhookEvent, type WebhookEventType, type WebhookPayload } from './entities/webhook-event.entity';
import { generateWebhookSecret } from './signing/webhook-signature';
import { WebhookUrlGuard, WebhookUrlRefusedError } from './url-guard/webhook-url.guard';
import { WebhookEvents } from './webhook-events.service';

export const MAX_DELIVERIES_PAGE = 100;
export const DEFAULT_DELIVERIES_PAGE = 50;

/** An attempt as the log lists it: with its event's type, and its number among all attempts of the event. */
export interface ListedDelivery {
  delivery: WebhookDelivery;
  eventType: WebhookEventType;
  /** 1 for the event's first attempt; a redelivery's attempts go on from those before it. */
  number: number;
}

export interface DeliveryPage {
  deliveries: ListedDelivery[];
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
    private readonly events: WebhookEvents,
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

  /**
   * Attempts of the mode's events, newest first, older than the attempt `before` when given, of
   * events of one `type` when given.
   */
  async listDeliveries(mode: AccountMode, { limit, before, type }: { limit: number; before?: string; type?: WebhookEventType }): Promise<DeliveryPage> {
    const query = this.listedOf(mode)
      .orderBy('d.created_at', 'DESC')
      .addOrderBy('d.id', 'DESC')
      .limit(limit + 1);
    if (type !== undefined) query.andWhere('e.type = :type', { type });
    if (before !== undefined) {
      if (!(await this.findDelivery(mode, before))) throw ApiError.invalidParameter(`before: no delivery ${before} in this account`);
      // Compared in SQL: timestamps have microseconds, which a JavaScript Date would cut off.
      query.andWhere('(d.created_at, d.id) < (SELECT c.created_at, c.id FROM translation.webhook_deliveries c WHERE c.id = :before)', { before });
    }
    const rows = await listedRows(query);
    const deliveries = rows.slice(0, limit);
    return { deliveries, nextBefore: rows.length > limit ? deliveries[deliveries.length - 1].delivery.id : null };
  }

  /** One attempt with the event's payload it sent; 404 for ids of other accounts or modes and for ids that are not attempt ids. */
  async getDelivery(mode: AccountMode, id: string): Promise<ListedDelivery & { payload: WebhookPayload }> {
    const [found] = isUUID(id) ? await listedRows(this.listedOf(mode).addSelect('e.payload', 'event_payload').andWhere('d.id = :id', { id })) : [];
    if (!found) throw ApiError.notFound(`Delivery ${id} not found`);
    return found as ListedDelivery & { payload: WebhookPayload };
  }

  /**
   * Publishes a `webhook.test` event to the mode's endpoint, delivered, signed, retried and logged
   * as any other event; 404 without an endpoint, 422 when it is disabled.
   */
  async sendTestEvent(mode: AccountMode): Promise<{ eventId: string }> {
    this.assertEnabled(await this.get(mode));
    const eventId = await this.endpoints.manager.transaction((manager) =>
      this.events.publish(manager, {
        accountId: mode.accountId,
        sandbox: mode.sandbox,
        type: 'webhook.test',
        data: { message: 'A test event, sent on request: answer 2xx to show that the endpoint receives and verifies events.' },
      }),
    );
    // Disabled between the check and the publication: nothing was published.
    if (eventId === null) return this.sendTestEvent(mode);
    return { eventId };
  }

  /**
   * Queues the event of a recorded attempt once more: a new series of attempts with the retry
   * schedule, to the endpoint's current URL, under the same `webhook-id`.
   */
  async redeliver(mode: AccountMode, deliveryId: string): Promise<{ eventId: string }> {
    const delivery = await this.findDelivery(mode, deliveryId);
    if (!delivery) throw ApiError.notFound(`Delivery ${deliveryId} not found`);
    this.assertEnabled(await this.get(mode));
    await this.endpoints.manager.transaction((manager) => this.outbox.enqueue(manager, new DeliverWebhookJob(delivery.eventId)));
    return { eventId: delivery.eventId };
  }

  private assertEnabled(endpoint: WebhookEndpoint): void {
    if (endpoint.disabledAt) {
      throw ApiError.invalidParameter(`The webhook endpoint is disabled (${endpoint.disabledReason}); register its URL again with PUT /api/v1/webhook`);
    }
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

  /** The mode's attempts with their event's type and their number among the event's attempts. */
  private listedOf(mode: AccountMode) {
    return (
      this.deliveriesOf(mode)
        .addSelect('e.type', 'event_type')
        // Through the (event_id, series, attempt) index: the attempts of one event are few.
        .addSelect('(SELECT count(*) FROM translation.webhook_deliveries x WHERE x.event_id = d.event_id AND (x.created_at, x.id) <= (d.created_at, d.id))', 'number')
    );
  }

  /** A delivery belongs to the mode of its event. */
  private deliveriesOf({ accountId, sandbox }: AccountMode) {
    return this.deliveries
      .createQueryBuilder('d')
      .innerJoin(WebhookEvent, 'e', 'e.id = d.event_id')
      .where('d.account_id = :accountId AND e.sandbox = :sandbox', { accountId, sandbox });
  }
}

interface ListedRow {
  d_id: string;
  event_type: WebhookEventType;
  number: string;
  event_payload?: WebhookPayload;
}

async function listedRows(query: SelectQueryBuilder<WebhookDelivery>): Promise<(ListedDelivery & { payload?: WebhookPayload })[]> {
  const { entities, raw } = await query.getRawAndEntities<ListedRow>();
  const byId = new Map(raw.map((row) => [row.d_id, row]));
  return entities.map((delivery) => {
    const row = byId.get(delivery.id)!;
    return { delivery, eventType: row.event_type, number: Number(row.number), payload: row.event_payload };
  });
}

/** Only the key columns: a principal passed as the mode carries more. */
function endpointOf({ accountId, sandbox }: AccountMode): Pick<WebhookEndpoint, 'accountId' | 'sandbox'> {
  return { accountId, sandbox };
}
