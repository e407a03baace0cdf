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
