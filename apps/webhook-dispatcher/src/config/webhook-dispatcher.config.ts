import { DefaultPort } from '@platform/contracts';
import { WorkerConfig } from '@platform/queue';
import { EnvInt } from '@platform/service-kit';
import { withWebhookUrlConfig } from '@platform/webhooks';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsInt, Max, Min } from 'class-validator';

/** "5,300" -> [5, 300]; anything that is not a whole number stays text, so validation names it. */
const EnvIntList = () =>
  Transform(({ value }) => (typeof value === 'string' ? value.split(',').map((part) => (/^\s*\d+\s*$/.test(part) ? Number(part) : part)) : value));

export class WebhookDispatcherConfig extends withWebhookUrlConfig(WorkerConfig) {
  PORT = DefaultPort['webhook-dispatcher'];

  /** Attempts mostly wait on receivers' networks, so a process runs many at once. */
  override WORKER_CONCURRENCY = 16;

  /**
   * Seconds between attempts, one entry per retry after the first attempt (jittered by ±10%).
   * A receiver's Retry-After replaces the next delay.
   */
  @EnvIntList() @IsArray() @ArrayNotEmpty() @ArrayMaxSize(20) @IsInt({ each: true }) @Min(1, { each: true }) @Max(7 * 24 * 3600, { each: true })
  WEBHOOK_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000];

  /** How long a receiver has to answer an attempt, from its start to the response's head. */
  @EnvInt() @IsInt() @Min(100) @Max(120_000)
  WEBHOOK_TIMEOUT_MS = 15_000;

  /** Of WEBHOOK_TIMEOUT_MS, how long establishing the connection (TCP, and TLS for https) may take. */
  @EnvInt() @IsInt() @Min(100) @Max(120_000)
  WEBHOOK_CONNECT_TIMEOUT_MS = 3_000;

  /** Attempts to one endpoint under way at once, over all replicas; its other events wait in its lane. */
  @EnvInt() @IsInt() @Min(1) @Max(64)
  WEBHOOK_ENDPOINT_CONCURRENCY = 2;

  /** Consecutive failed attempts to an endpoint (no answer, 3xx, 408, 429, 5xx) that open its circuit. */
  @EnvInt() @IsInt() @Min(1) @Max(1000)
  WEBHOOK_CIRCUIT_FAILURES = 5;

  /**
   * How long an open circuit holds back an endpoint's deliveries before one probe attempt; each
   * failed probe doubles it, up to 16 times this.
   */
  @EnvInt() @IsInt() @Min(100) @Max(3_600_000)
  WEBHOOK_CIRCUIT_COOLDOWN_MS = 30_000;
}
