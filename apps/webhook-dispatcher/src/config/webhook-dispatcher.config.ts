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

  /**
   * Seconds between attempts, one entry per retry after the first attempt (jittered by ±10%).
   * A receiver's Retry-After replaces the next delay.
   */
  @EnvIntList() @IsArray() @ArrayNotEmpty() @ArrayMaxSize(20) @IsInt({ each: true }) @Min(1, { each: true }) @Max(7 * 24 * 3600, { each: true })
  WEBHOOK_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000];

  /** How long a receiver has to answer an attempt. */
  @EnvInt() @IsInt() @Min(100) @Max(120_000)
  WEBHOOK_TIMEOUT_MS = 15_000;
}
