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
}
