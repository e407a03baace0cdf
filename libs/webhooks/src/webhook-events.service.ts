import { Injectable } from '@nestjs/common';
import type { AccountMode } from '@platform/contracts';
import { OutboxService } from '@platform/outbox';
import { IsNull, type EntityManager } from 'typeorm';
import { DeliverWebhookJob } from './deliver-webhook.job';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity';
import { WebhookEvent, type WebhookEventType } from './entities/webhook-event.entity';
import { generateWebhookEventId } from './signing/webhook-signature';

export interface NewWebhookEvent extends AccountMode {
  type: WebhookEventType;
  data: object;
}

/** Publishes events to the account's webhook endpoint of the event's mode. */
@Injectable()
export class WebhookEvents {
  constructor(private readonly outbox: OutboxService) {}

  /**
   * Records the event and queues its delivery in the caller's transaction, so the event exists if
   * and only if what it reports committed. The payload is frozen now; later attempts send it as is.
   * Returns the event id, or null when the account has no enabled endpoint in that mode (nothing
   * is recorded).
   */
  async publish(manager: EntityManager, { accountId, sandbox, type, data }: NewWebhookEvent): Promise<string | null> {
    const enabled = await manager.existsBy(WebhookEndpoint, { accountId, sandbox, disabledAt: IsNull() });
    if (!enabled) return null;
    const id = generateWebhookEventId();
    await manager.insert(WebhookEvent, { id, accountId, sandbox, type, payload: { type, timestamp: new Date().toISOString(), data } });
    await this.outbox.enqueue(manager, new DeliverWebhookJob(id));
    return id;
  }
}
