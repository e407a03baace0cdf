import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { QueueName } from '@platform/contracts';
import { OutboxService } from '@platform/outbox';
import { enqueue, jobOptions } from '@platform/queue';
import { combinations, MetricsRegistry } from '@platform/service-kit';
import {
  DeliverWebhookJob,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEvent,
  WebhookUrlGuard,
  webhookSignatureHeaders,
} from '@platform/webhooks';
import type { Queue } from 'bull';
import { createHash } from 'node:crypto';
import type { Counter, Histogram } from 'prom-client';
import { DataSource, IsNull, Repository } from 'typeorm';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { judgeResponse, noResponse, type AttemptOutcome } from './attempt-outcome';
import { DeliveryLog, type FinalAttempt } from './delivery-log.service';
import { GroupedCalls } from './grouped-calls';
import { retryDelayMs } from './delivery-schedule';
import { EndpointLanes, type Admission } from './endpoint-lanes.service';
import { postWebhook, WEBHOOK_REQUEST_HEADERS } from './webhook-http-client';

/** Postponed attempts of events that were held back together spread out by this share. */
const JITTER = 0.1;
/** However many wait in a lane, a waiter looks again this often. */
const MAX_WAIT_MS = 3600_000;

type HeldBack = Exclude<Admission, { kind: 'admitted' }>;

/**
 * How an attempt ended, for `webhook_attempts_total`: `delivered` (2xx), `retried` (no answer,
 * 5xx, 408, 429 or a redirect, with attempts left), `refused` (another 4xx: never retried) or
 * `exhausted` (failed with the retry schedule used up).
 */
const ATTEMPT_OUTCOMES = ['delivered', 'retried', 'refused', 'exhausted'] as const;
const POSTPONE_REASONS = ['endpoint_busy', 'circuit_open', 'process_crowded'] as const;

interface Found {
  event: WebhookEvent;
  endpoint: WebhookEndpoint | null;
  attempted: boolean;
}

interface FoundRow {
  /** The step's position in the query's input, from 1 (bigint: a string). */
  n: string;
  id: string;
  account_id: string;
  sandbox: boolean;
  payload: WebhookEvent['payload'];
  url: string | null;
  secret: string | null;
  disabled_at: Date | null;
  has_endpoint: boolean;
  attempted: boolean;
}

/** An attempt's request and answer as the delivery log keeps them. */
interface Exchange {
  outcome: AttemptOutcome;
  requestHeaders: Record<string, string>;
  responseExcerpt: string | null;
}

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
  private readonly postponed: Counter<string>;
  private readonly attempts: Counter<string>;
  private readonly attemptSeconds: Histogram<string>;
  private readonly lookups = new GroupedCalls<DeliveryStep, Found | null>((steps) => this.findAll(steps));

  constructor(
    @InjectRepository(WebhookEvent) private readonly events: Repository<WebhookEvent>,
    @InjectRepository(WebhookEndpoint) private readonly endpoints: Repository<WebhookEndpoint>,
    private readonly dataSource: DataSource,
    private readonly guard: WebhookUrlGuard,
    private readonly outbox: OutboxService,
    private readonly config: WebhookDispatcherConfig,
    private readonly lanes: EndpointLanes,
    private readonly log: DeliveryLog,
    @InjectQueue(QueueName.Webhooks) private readonly queue: Queue,
    metrics: MetricsRegistry,
  ) {
    this.postponed = metrics.counter(
      'webhook_attempts_postponed_total',
      'Attempts put back unmade: the endpoint was busy, its circuit open or the process crowded',
      ['reason'],
      combinations({ reason: POSTPONE_REASONS }),
    );
    this.attempts = metrics.counter('webhook_attempts_total', 'Delivery attempts made, by outcome', ['outcome'], combinations({ outcome: ATTEMPT_OUTCOMES }));
    this.attemptSeconds = metrics.histogram('webhook_attempt_duration_seconds', 'Delivery attempts made, from connecting to the end of the answer', [], [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30]);
  }

  /** `jobId` is the queue job asking. Returns what happened, in a few words, for the job's result. */
  async attempt(step: DeliveryStep, jobId: string): Promise<string> {
    const found = await this.find(step);
    // Deleted with its account, or by retention.
    if (!found) return 'skipped: the event no longer exists';
    // A job run again after its attempt was recorded (a crash before Bull heard back).
    if (found.attempted) return 'skipped: already attempted';
    const { event, endpoint } = found;
    if (!endpoint) return 'skipped: the endpoint was deleted';
    if (endpoint.disabledAt) return 'skipped: the endpoint is disabled';

    const lane = laneOf(endpoint);
    const admission = await this.lanes.admit(lane, jobId);
    if (admission.kind !== 'admitted') return this.postpone(step, lane, admission);

    const started = performance.now();
    const exchange = await this.call(endpoint, event);
    const { outcome } = exchange;
    const durationMs = Math.round(performance.now() - started);
    const delayMs = outcome.delivered || outcome.permanent ? null : retryDelayMs(this.config.WEBHOOK_RETRY_SCHEDULE, step.attempt, outcome.retryAfterMs);
    this.attemptSeconds.observe(durationMs / 1000);
    this.attempts.inc({ outcome: outcome.delivered ? 'delivered' : outcome.permanent ? 'refused' : delayMs === null ? 'exhausted' : 'retried' });
    try {
      await this.record(step, event, endpoint, exchange, durationMs, delayMs);
    } finally {
      // Any answer but a failure shows the receiver is up; 4xx are the event's problem, not its.
      const openedForMs = await this.lanes.finish(lane, admission, outcome.delivered || outcome.permanent ? 'answered' : 'failed');
      if (openedForMs) this.logger.warn({ msg: 'webhook endpoint circuit opened', accountId: endpoint.accountId, lane, probe: admission.probe, cooldownMs: openedForMs });
    }

    const result = outcome.delivered ? 'delivered' : delayMs === null ? 'failed for good' : `failed, retry in ${delayMs} ms`;
    // The URL stays out of logs: customers put tokens in paths and queries.
    this.logger.log({ msg: 'webhook attempt', eventId: event.id, series: step.series, attempt: step.attempt, status: outcome.statusCode, result, ms: durationMs });
    return result;
  }

  /**
   * The event, the endpoint of its mode (a sandbox endpoint never receives live events, nor the
   * reverse) and whether this attempt is on record already; several attempts to one query.
   */
  private find(step: DeliveryStep): Promise<Found | null> {
    return this.lookups.call(step);
  }

  private async findAll(steps: DeliveryStep[]): Promise<(Found | null)[]> {
    const rows = await this.dataSource.query<FoundRow[]>(
      `SELECT s.n, e.id, e.account_id, e.sandbox, e.payload, w.url, w.secret, w.disabled_at, w.account_id IS NOT NULL AS has_endpoint,
         EXISTS (SELECT 1 FROM translation.webhook_deliveries d WHERE d.event_id = e.id AND d.series = s.series AND d.attempt = s.attempt) AS attempted
       FROM unnest($1::text[], $2::text[], $3::int[]) WITH ORDINALITY AS s(event_id, series, attempt, n)
       JOIN translation.webhook_events e ON e.id = s.event_id
       LEFT JOIN translation.webhook_endpoints w ON w.account_id = e.account_id AND w.sandbox = e.sandbox`,
      [steps.map((s) => s.eventId), steps.map((s) => s.series), steps.map((s) => s.attempt)],
    );
    const found: (Found | null)[] = steps.map(() => null);
    for (const row of rows) {
      const event = this.events.create({ id: row.id, accountId: row.account_id, sandbox: row.sandbox, payload: row.payload });
      const endpoint = row.has_endpoint
        ? this.endpoints.create({ accountId: row.account_id, sandbox: row.sandbox, url: row.url!, secret: row.secret!, disabledAt: row.disabled_at })
        : null;
      found[Number(row.n) - 1] = { event, endpoint, attempted: row.attempted };
    }
    return found;
  }

  /**
   * Puts the attempt back in the queue, unmade and unrecorded: it counts against neither the
   * retry schedule nor the log. A busy lane wakes its waiters as attempts end; their own delay,
   * longer the more wait ahead, only covers a wake-up lost with a process. An open circuit holds
   * the attempt until its cool-down ends; a crowded process, for about one attempt's time.
   */
  private async postpone(step: DeliveryStep, lane: string, admission: HeldBack): Promise<string> {
    const { delayMs, reason, why } = await this.holdBack(lane, admission);
    const job = await enqueue(this.queue, new DeliverWebhookJob(step.eventId, step.series, step.attempt), { delay: delayMs });
    if (admission.kind === 'busy') await this.lanes.wait(lane, String(job.id));
    this.postponed.inc({ reason });
    return `postponed ${delayMs} ms: ${why}`;
  }

  private async holdBack(lane: string, admission: HeldBack): Promise<{ delayMs: number; reason: (typeof POSTPONE_REASONS)[number]; why: string }> {
    const jittered = (ms: number) => Math.round(ms * (1 + JITTER * Math.random()));
    switch (admission.kind) {
      case 'open':
        return { delayMs: jittered(admission.remainingMs), reason: 'circuit_open', why: "the endpoint's circuit is open" };
      case 'crowded':
        return { delayMs: jittered(this.config.WEBHOOK_TIMEOUT_MS), reason: 'process_crowded', why: 'attempts to failing endpoints hold their share of this process' };
      case 'busy': {
        const cap = this.config.WEBHOOK_ENDPOINT_CONCURRENCY;
        const rounds = 1 + Math.floor((await this.lanes.waiting(lane)) / cap);
        return { delayMs: Math.min(jittered(rounds * this.lanes.attemptMs), MAX_WAIT_MS), reason: 'endpoint_busy', why: `${cap} attempts to the endpoint are under way` };
      }
    }
  }

  /**
   * With tracing on, the HTTP instrumentation gives the request a client span in the delivery
   * job's trace and sends it as `traceparent`, so a receiver that traces continues the trace of
   * the batch that caused the event. The signature covers the id, the timestamp and the body,
   * never that header.
   */
  private async call(endpoint: WebhookEndpoint, event: WebhookEvent): Promise<Exchange> {
    const body = JSON.stringify(event.payload);
    const headers = webhookSignatureHeaders(endpoint.secret, event.id, body);
    const requestHeaders = { ...headers, ...WEBHOOK_REQUEST_HEADERS };
    try {
      const target = await this.guard.vet(endpoint.url);
      const answer = await postWebhook(target, headers, body, {
        timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
        connectTimeoutMs: this.config.WEBHOOK_CONNECT_TIMEOUT_MS,
      });
      return { outcome: judgeResponse(answer.status, answer.retryAfter), requestHeaders, responseExcerpt: answer.excerpt };
    } catch (error) {
      return { outcome: noResponse(reasonOf(error)), requestHeaders, responseExcerpt: null };
    }
  }

  /**
   * The attempt, its consequences and the next attempt commit together or not at all. An attempt
   * that ends its series with no consequence (the common case: delivered) joins the shared
   * INSERTs of the delivery log instead of a transaction of its own.
   */
  private record(step: DeliveryStep, event: WebhookEvent, endpoint: WebhookEndpoint, { outcome, requestHeaders, responseExcerpt }: Exchange, durationMs: number, delayMs: number | null) {
    const attempt: FinalAttempt = {
      ...step,
      accountId: event.accountId,
      url: endpoint.url,
      statusCode: outcome.statusCode,
      error: outcome.error,
      requestHeaders,
      responseExcerpt,
      durationMs,
    };
    if (delayMs === null && !outcome.disableReason) return this.log.record(attempt);
    return this.dataSource.transaction(async (manager) => {
      await manager.insert(WebhookDelivery, {
        ...attempt,
        nextAttemptAt: delayMs === null ? null : new Date(Date.now() + delayMs),
        final: delayMs === null,
      });
      if (outcome.disableReason) {
        // Only the URL that answered 410: one registered meanwhile stays enabled.
        await manager.update(WebhookEndpoint, { accountId: endpoint.accountId, sandbox: endpoint.sandbox, url: endpoint.url, disabledAt: IsNull() }, { disabledAt: () => 'now()', disabledReason: outcome.disableReason });
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

/**
 * An endpoint's lane is its account and URL: a URL the customer fixes starts with a closed
 * circuit, and two endpoints of one account on the same receiver share its limits. Hashed,
 * since URLs carry customers' tokens and lane names show in Redis.
 */
function laneOf(endpoint: WebhookEndpoint): string {
  return createHash('sha256').update(`${endpoint.accountId}\n${endpoint.url}`).digest('base64url').slice(0, 22);
}

/** Network errors raised by several connection attempts at once carry their reasons inside. */
function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && !error.message) return error.errors.map(reasonOf).join('; ');
  if (error instanceof Error) return error.message || (error as NodeJS.ErrnoException).code || error.name;
  return String(error);
}
