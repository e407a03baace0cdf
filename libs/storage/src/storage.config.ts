import { DatabaseRedisConfig, EnvBool } from '@platform/service-kit';
import { IsBoolean, IsNotEmpty, IsString, IsUrl, Matches } from 'class-validator';

// A mixin constructor must take `any[]` (TypeScript rule for mixin classes).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ConfigClass<T> = new (...args: any[]) => T;

/**
 * Object storage settings. The defaults reach the local stack's s3rver; against AWS or another
 * provider set the endpoint, region, bucket and credentials.
 */
export function withStorageConfig<B extends ConfigClass<DatabaseRedisConfig>>(Base: B) {
  class StorageSettings extends Base {
    @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }, { message: 'S3_ENDPOINT must be an http(s) URL' })
    S3_ENDPOINT = 'http://127.0.0.1:4569';

    @Matches(/^[a-z0-9-]+$/, { message: 'S3_REGION must be a region name such as eu-central-1' })
    S3_REGION = 'us-east-1';

    @Matches(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'S3_BUCKET must be a valid bucket name (3-63 lowercase letters, digits, dots, hyphens)' })
    S3_BUCKET = 'images';

    @IsString() @IsNotEmpty()
    S3_ACCESS_KEY_ID = 'S3RVER';

    @IsString() @IsNotEmpty()
    S3_SECRET_ACCESS_KEY = 'S3RVER';

    /** Bucket in the path (`endpoint/bucket/key`), as s3rver and most self-hosted stores need. */
    @EnvBool() @IsBoolean()
    S3_FORCE_PATH_STYLE = true;
  }
  return StorageSettings;
}

/** Postgres, Redis and object storage: the configuration of a service that stores images. */
export class StorageConfig extends withStorageConfig(DatabaseRedisConfig) {}

export type StorageSettings = Pick<StorageConfig, 'S3_ENDPOINT' | 'S3_REGION' | 'S3_BUCKET' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' | 'S3_FORCE_PATH_STYLE'>;
