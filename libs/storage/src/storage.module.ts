import {
  CreateBucketCommand,
  HeadBucketCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { DynamicModule, Global, Inject, Injectable, Logger, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { HealthRegistry, MetricsRegistry } from '@platform/service-kit';
import { observeS3 } from './s3-metrics';
import type { StorageSettings } from './storage.config';

/** Injection token of the bucket name; the client itself is injected as `S3Client`. */
export const S3_BUCKET = Symbol('S3_BUCKET');

const REQUEST_TIMEOUT_MS = 3000;
const FIRST_RETRY_MS = 2000;
const MAX_RETRY_MS = 60_000;

export function createS3Client(settings: StorageSettings): S3Client {
  return new S3Client({
    endpoint: settings.S3_ENDPOINT,
    region: settings.S3_REGION,
    forcePathStyle: settings.S3_FORCE_PATH_STYLE,
    credentials: { accessKeyId: settings.S3_ACCESS_KEY_ID, secretAccessKey: settings.S3_SECRET_ACCESS_KEY },
    // Recent SDKs add checksums to every request by default; not every S3-compatible server
    // (s3rver among them) understands them, and they are only required by a few operations.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Creates the bucket unless it exists; safe when several replicas start at once. */
export async function ensureBucket(s3: S3Client, bucket: string): Promise<'exists' | 'created'> {
  const options = () => ({ abortSignal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  try {
    await s3.send(new HeadBucketCommand({ Bucket: bucket }), options());
    return 'exists';
  } catch (error) {
    if (!(error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)) throw error;
  }
  try {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }), options());
    return 'created';
  } catch (error) {
    // Another replica created it between our check and our request.
    if (error instanceof S3ServiceException && ['BucketAlreadyOwnedByYou', 'BucketAlreadyExists'].includes(error.name)) return 'exists';
    throw error;
  }
}

@Injectable()
class BucketLifecycle implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Storage');
  private retry?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly s3: S3Client,
    @Inject(S3_BUCKET) private readonly bucket: string,
    private readonly health: HealthRegistry,
  ) {}

  async onModuleInit() {
    this.health.register('s3', () => this.s3.send(new HeadBucketCommand({ Bucket: this.bucket }), { abortSignal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }));
    await this.ensureBucket();
  }

  onApplicationShutdown() {
    this.closed = true;
    clearTimeout(this.retry);
    this.s3.destroy();
  }

  /** Storage may come up after the service: start anyway (/health says 503) and keep trying. */
  private async ensureBucket(delayMs = FIRST_RETRY_MS): Promise<void> {
    try {
      if ((await ensureBucket(this.s3, this.bucket)) === 'created') this.logger.log({ msg: 'created bucket', bucket: this.bucket });
    } catch (error) {
      if (this.closed) return;
      const err = error instanceof Error ? error.message : String(error);
      this.logger.warn({ msg: 'cannot reach the bucket yet', bucket: this.bucket, err, retryInMs: delayMs });
      this.retry = setTimeout(() => void this.ensureBucket(Math.min(delayMs * 2, MAX_RETRY_MS)), delayMs).unref();
    }
  }
}

/** An S3 client on the configured endpoint, its requests on /metrics, its bucket made sure of at start, and a /health check. */
@Global()
@Module({})
export class StorageModule {
  static forRoot(settings: StorageSettings): DynamicModule {
    return {
      module: StorageModule,
      providers: [
        { provide: S3Client, inject: [MetricsRegistry], useFactory: (metrics: MetricsRegistry) => observeS3(createS3Client(settings), metrics) },
        { provide: S3_BUCKET, useValue: settings.S3_BUCKET },
        BucketLifecycle,
      ],
      exports: [S3Client, S3_BUCKET],
    };
  }
}
