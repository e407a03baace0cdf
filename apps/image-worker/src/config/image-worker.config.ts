import { DefaultPort } from '@platform/contracts';
import { withConversionConfig } from '@platform/image-conversion';
import { WorkerConfig } from '@platform/queue';
import { EnvInt } from '@platform/service-kit';
import { withStorageConfig } from '@platform/storage';
import { IsInt, Max, Min } from 'class-validator';

export class ImageWorkerConfig extends withConversionConfig(withStorageConfig(WorkerConfig)) {
  PORT = DefaultPort['image-worker'];

  /**
   * How often pending sources are looked for, and how old one must be before the sweep queues
   * it: a younger source's job is most likely still on its way from image-api.
   */
  @EnvInt() @IsInt() @Min(100) @Max(24 * 3600_000)
  VARIANT_SWEEP_INTERVAL_MS = 60_000;

  /**
   * Rounds of attempts a variant gets: when its job has used up its attempts (six, over about a
   * minute) the sweep starts it over, and after this many rounds gives it up, keeping its source
   * (image.variant_failures, `image_variants_failed`).
   */
  @EnvInt() @IsInt() @Min(1) @Max(1000)
  VARIANT_MAX_ROUNDS = 10;
}
