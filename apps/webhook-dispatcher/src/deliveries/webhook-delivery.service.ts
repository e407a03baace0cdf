import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { OutboxService } from '@platform/outbox';
import { jobOptions } from '@platform/queue';
import {
  DeliverWebhookJob,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEvent,
  WebhookUrlGuard,
  webhookSignatureHeaders,
} from '@platform/webhooks';
import { DataSource, IsNull, Repository } from 'typeorm';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { judgeResponse, noResponse, type AttemptOutcome } from './attempt-outcome';
import { retryDelayMs } from './delivery-schedule';
import { postWebhook } from './webhook-http-client';

/** Which attempt of which series a job is. */
export interface DeliveryStep {
  eventId: string;
  series: string;
  attempt: number;
}

/**
 * Makes one attempt to deliver an event and records it; a failed attempt schedules the next one.
 * The endpoint is read at the time of the attempt, so a changed URL or a rotated secret applies
 * to the next attempt, retries of earlier events included.
 */
@Injectable()
export class WebhookDeliveryService {
  private readonly logger = new Logger('WebhookDelivery');

  constructor(
    @InjectRepository(WebhookEvent) private readonly events: Repository<WebhookEvent>,
    @InjectRepository(WebhookEndpoint) private readonly endpoints: Repository<WebhookEndpoint>,
    @InjectRepository(WebhookDelivery) private readonly deliveries: Repository<WebhookDelivery>,
    private readonly dataSource: DataSource,
    private readonly guard: WebhookUrlGuard,
    private readonly outbox: OutboxService,
    private readonly config: WebhookDispatcherConfig,
  ) {}

  /** Returns what happened, in a few words, for the job's result. */
  async attempt(step: DeliveryStep): Promise<string> {
    const event = await this.events.findOneBy({ id: step.eventId });
    // Deleted with its account, or by retention.
    if (!event) return 'skipped: the event no longer exists';
    // A job run again after its attempt was recorded (a crash before Bull heard back).
    if (await this.deliveries.existsBy({ eventId: event.id, series: step.series, attempt: step.attempt })) return 'skipped: already attempted';
    const endpoint = await this.endpoints.findOneBy({ accountId: event.accountId });
    if (!endpoint) return 'skipped: the endpoint was deleted';
    if (endpoint.disabledAt) return 'skipped: the endpoint is disabled';

    const started = performance.now();
    const outcome = await this.call(endpoint, event);
    const durationMs = Math.round(performance.now() - started);
    const delayMs = outcome.delivered || outcome.permanent ? null : retryDelayMs(this.config.WEBHOOK_RETRY_SCHEDULE, step.attempt, outcome.retryAfterMs);
    await this.record(step, event, endpoint, outcome, durationMs, delayMs);

    const result = outcome.delivered ? 'delivered' : delayMs === null ? 'failed for good' : `failed, retry in ${delayMs} ms`;
    // The URL stays out of logs: customers put tokens in paths and queries.
    this.logger.log({ msg: 'webhook attempt', eventId: event.id, series: step.series, attempt: step.attempt, status: outcome.statusCode, result, ms: durationMs });
    return result;
  }

  private async call(endpoint: WebhookEndpoint, event: WebhookEvent): Promise<AttemptOutcome> {
    const body = JSON.stringify(event.payload);
    try {
      const target = await this.guard.vet(endpoint.url);
      const answer = await postWebhook(target, webhookSignatureHeaders(endpoint.secret, event.id, body), body, this.config.WEBHOOK_TIMEOUT_MS);
      return judgeResponse(answer.status, answer.retryAfter);
    } catch (error) {
      return noResponse(reasonOf(error));
    }
  }

  /** The attempt, its consequences and the next attempt commit together or not at all. */
  private record(step: DeliveryStep, event: WebhookEvent, endpoint: WebhookEndpoint, outcome: AttemptOutcome, durationMs: number, delayMs: number | null) {
    return this.dataSource.transaction(async (manager) => {
      await manager.insert(WebhookDelivery, {
        eventId: event.id,
        accountId: event.accountId,
        series: step.series,
        attempt: step.attempt,
        url: endpoint.url,
        statusCode: outcome.statusCode,
        error: outcome.error,
        durationMs,
        nextAttemptAt: delayMs === null ? null : new Date(Date.now() + delayMs),
        final: delayMs === null,
      });
      if (outcome.disableReason) {
        // Only the URL that answered 410: one registered meanwhile stays enabled.
        await manager.update(WebhookEndpoint, { accountId: endpoint.accountId, url: endpoint.url, disabledAt: IsNull() }, { disabledAt: () => 'now()', disabledReason: outcome.disableReason });
      }
      if (delayMs !== null) {
        const next = new DeliverWebhookJob(event.id, step.series, step.attempt + 1);
        await this.outbox.add(manager, {
          queue: DeliverWebhookJob.queue,
          jobName: DeliverWebhookJob.name,
          payload: { ...next },
          jobId: `${step.series}#${next.attempt}`,
          options: { ...jobOptions(DeliverWebhookJob), delay: delayMs },
        });
      }
    });
  }
}

/** Network errors raised by several connection attempts at once carry their reasons inside. */
function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && !error.message) return error.errors.map(reasonOf).join('; ');
  if (error instanceof Error) return error.message || (error as NodeJS.ErrnoException).code || error.name;
  return String(error);
}
