import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { ApiError } from '@platform/errors';
import { OutboxService } from '@platform/outbox';
import { isUUID } from 'class-validator';
import { Repository } from 'typeorm';
import { DeliverWebhookJob } from './deliver-webhook.job';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity';
import { generateWebhookSecret } from './signing/webhook-signature';
import { WebhookUrlGuard, WebhookUrlRefusedError } from './url-guard/webhook-url.guard';

export const MAX_DELIVERIES_PAGE = 100;

export interface DeliveryPage {
  deliveries: WebhookDelivery[];
  /** Pass as `before` for the next, older page; null on the last page. */
  nextBefore: string | null;
}

const NO_ENDPOINT = 'No webhook endpoint is registered; register one with PUT /api/v1/webhook';

/** An account's webhook endpoint and its delivery log, as the account manages them. */
@Injectable()
export class WebhookEndpointService {
  constructor(
    @InjectRepository(WebhookEndpoint) private readonly endpoints: Repository<WebhookEndpoint>,
    @InjectRepository(WebhookDelivery) private readonly deliveries: Repository<WebhookDelivery>,
    private readonly guard: WebhookUrlGuard,
    private readonly outbox: OutboxService,
  ) {}

  /**
   * Points the account's endpoint at `url`, creating it with a new secret when there is none.
   * An existing endpoint keeps its secret and is enabled again. The URL is refused with 422 when
   * it is not an http(s) URL of a public host.
   */
  async register(accountId: string, url: string): Promise<{ endpoint: WebhookEndpoint; created: boolean }> {
    const { url: checked } = await this.vet(url);
    const [{ created }] = await this.endpoints.query(
      `INSERT INTO translation.webhook_endpoints (account_id, url, secret) VALUES ($1, $2, $3)
       ON CONFLICT (account_id) DO UPDATE SET url = EXCLUDED.url, disabled_at = NULL, disabled_reason = NULL, updated_at = now()
       RETURNING (xmax = 0) AS created`,
      [accountId, checked.href, generateWebhookSecret()],
    );
    return { endpoint: await this.get(accountId), created };
  }

  async get(accountId: string): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.findOneBy({ accountId });
    if (!endpoint) throw ApiError.notFound(NO_ENDPOINT);
    return endpoint;
  }

  /** Attempts already queued find no endpoint and stop; the delivery log stays. */
  async remove(accountId: string): Promise<void> {
    const { affected } = await this.endpoints.delete({ accountId });
    if (!affected) throw ApiError.notFound(NO_ENDPOINT);
  }

  /** The very next attempt, retries of earlier events included, is signed with the new secret. */
  async rotateSecret(accountId: string): Promise<WebhookEndpoint> {
    const { affected } = await this.endpoints.update({ accountId }, { secret: generateWebhookSecret() });
    if (!affected) throw ApiError.notFound(NO_ENDPOINT);
    return this.get(accountId);
  }

  /** Attempts, newest first, older than the attempt `before` when given. */
  async listDeliveries(accountId: string, { limit, before }: { limit: number; before?: string }): Promise<DeliveryPage> {
    const query = this.deliveries
      .createQueryBuilder('d')
      .where('d.account_id = :accountId', { accountId })
      .orderBy('d.created_at', 'DESC')
      .addOrderBy('d.id', 'DESC')
      .limit(limit + 1);
    if (before !== undefined) {
      if (!(await this.findDelivery(accountId, before))) throw ApiError.invalidParameter(`before: no delivery ${before} in this account`);
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
  async redeliver(accountId: string, deliveryId: string): Promise<{ eventId: string }> {
    const delivery = await this.findDelivery(accountId, deliveryId);
    if (!delivery) throw ApiError.notFound(`Delivery ${deliveryId} not found`);
    const endpoint = await this.get(accountId);
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

  private findDelivery(accountId: string, id: string): Promise<WebhookDelivery | null> {
    return isUUID(id) ? this.deliveries.findOneBy({ id, accountId }) : Promise.resolve(null);
  }
}
