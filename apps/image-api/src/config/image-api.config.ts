import { DefaultPort } from '@platform/contracts';
import { withConversionConfig } from '@platform/image-conversion';
import { withPlanLimitsConfig } from '@platform/image-tokens';
import { EnvInt } from '@platform/service-kit';
import { StorageConfig } from '@platform/storage';
import { IsInt, IsOptional, IsUrl, Max, Min } from 'class-validator';

export class ImageApiConfig extends withConversionConfig(withPlanLimitsConfig(StorageConfig)) {
  PORT = DefaultPort['image-api'];

  /** Largest accepted image file, per file. */
  @EnvInt() @IsInt() @Min(1024) @Max(1024 * 1024 * 1024)
  MAX_FILE_BYTES = 25 * 1024 * 1024;

  /**
   * Conversion requests of one token in progress at once (receiving files or converting them),
   * counted across replicas in Redis; more are refused with 429. A request converts its files one
   * after the other, so this is also how many conversions of one token run at once.
   */
  @EnvInt() @IsInt() @Min(1) @Max(1000)
  CONCURRENT_REQUESTS_PER_TOKEN = 2;

  /**
   * Conversion requests this process accepts at once; more are refused with 429. Each keeps its
   * files (up to 10 × MAX_FILE_BYTES) in the temp directory until it is answered.
   */
  @EnvInt() @IsInt() @Min(1) @Max(10_000)
  CONCURRENT_REQUESTS_PER_PROCESS = 16;

  /** Images this process decodes and encodes at once; admitted requests wait their turn. */
  @EnvInt() @IsInt() @Min(1) @Max(256)
  CONCURRENT_CONVERSIONS_PER_PROCESS = 2;

  /**
   * Pixels (width × height × frames) of the images this process converts at once. Memory grows
   * with pixels (10–17 MiB per megapixel while WebP is encoded, about 30 for AVIF), so this
   * bounds it: two 2 MP photos convert side by side, two 12 MP ones one after the other. An image
   * larger than the budget (up to MAX_PIXELS) converts alone.
   */
  @EnvInt() @IsInt() @Min(1) @Max(1_000_000_000)
  CONVERSION_PIXELS_PER_PROCESS = 16_000_000;

  /**
   * Public base address of the stored images (a CDN in front of the bucket). Unset, it is the
   * bucket itself on S3_ENDPOINT, as with the local S3 server.
   */
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }, { message: 'CDN_URL must be an http(s) URL' })
  CDN_URL?: string;

  get cdnBaseUrl(): string {
    return (this.CDN_URL ?? `${this.S3_ENDPOINT}/${this.S3_BUCKET}`).replace(/\/+$/, '');
  }
}
