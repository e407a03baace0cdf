import { DefaultPort } from '@platform/contracts';
import { withPlanLimitsConfig } from '@platform/image-tokens';
import { EnvInt } from '@platform/service-kit';
import { StorageConfig } from '@platform/storage';
import { IsInt, Max, Min } from 'class-validator';

export class ImageApiConfig extends withPlanLimitsConfig(StorageConfig) {
  PORT = DefaultPort['image-api'];

  /** Largest accepted image file, per file. */
  @EnvInt() @IsInt() @Min(1024) @Max(1024 * 1024 * 1024)
  MAX_FILE_BYTES = 25 * 1024 * 1024;

  /** Largest accepted image area, read from the header before anything is decoded. */
  @EnvInt() @IsInt() @Min(1) @Max(1_000_000_000)
  MAX_PIXELS = 50_000_000;
}
