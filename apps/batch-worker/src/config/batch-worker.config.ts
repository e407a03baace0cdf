import { DefaultPort } from '@platform/contracts';
import { WorkerConfig } from '@platform/queue';
import { EnvInt } from '@platform/service-kit';
import { withEngineConfig } from '@platform/translation-engines';
import { withPricingConfig } from '@platform/translation-pipeline';
import { Transform } from 'class-transformer';
import { IsInt, IsNumber, Max, Min } from 'class-validator';

/** A decimal such as `0.1`; anything else stays a string so that validation names the variable. */
const EnvDecimal = () => Transform(({ value }) => (value === undefined || value === '' ? undefined : /^\d+(\.\d+)?$/.test(String(value).trim()) ? Number(value) : value));

export class BatchWorkerConfig extends withPricingConfig(withEngineConfig(WorkerConfig)) {
  PORT = DefaultPort['batch-worker'];

  /** How often finished jobs past their 30 days are deleted. */
  @EnvInt() @IsInt() @Min(100) @Max(24 * 3600_000)
  BATCH_CLEANUP_INTERVAL_MS = 15 * 60_000;

  /** Share of a review-tier job's texts that go to native-speaker review (at least one text). */
  @EnvDecimal() @IsNumber() @Min(0) @Max(1)
  REVIEW_SAMPLE_RATE = 0.1;

  /** Jobs of sandbox keys: their review tasks are approved automatically after this long. */
  @EnvInt() @IsInt() @Min(0) @Max(24 * 3600_000)
  REVIEW_SANDBOX_DELAY_MS = 2000;

  /** How often processing jobs are checked against the queue (see BATCH_REQUEUE_AFTER_MS, BATCH_STUCK_AFTER_MS). */
  @EnvInt() @IsInt() @Min(100) @Max(3600_000)
  BATCH_RECONCILE_INTERVAL_MS = 15_000;

  /** A processing job still this long whose queue entry is gone (Redis lost it, Bull gave it up) is queued again. */
  @EnvInt() @IsInt() @Min(100) @Max(24 * 3600_000)
  BATCH_REQUEUE_AFTER_MS = 60_000;

  /** Times a job is queued again that way; losing its entry once more fails it, refunded. */
  @EnvInt() @IsInt() @Min(0) @Max(1000)
  BATCH_MAX_RECOVERIES = 3;

  /** A processing job still this long is failed and refunded, whatever the queue says (review waits excepted). */
  @EnvInt() @IsInt() @Min(1000) @Max(30 * 24 * 3600_000)
  BATCH_STUCK_AFTER_MS = 24 * 3600_000;
}
