import { DefaultPort } from '@platform/contracts';
import { WorkerConfig } from '@platform/queue';
import { EnvInt } from '@platform/service-kit';
import { withEngineConfig } from '@platform/translation-engines';
import { withPricingConfig } from '@platform/translation-pipeline';
import { IsInt, Max, Min } from 'class-validator';

export class BatchWorkerConfig extends withPricingConfig(withEngineConfig(WorkerConfig)) {
  PORT = DefaultPort['batch-worker'];

  /** How often finished jobs past their 30 days are deleted. */
  @EnvInt() @IsInt() @Min(100) @Max(24 * 3600_000)
  BATCH_CLEANUP_INTERVAL_MS = 15 * 60_000;
}
