import { GetObjectCommand, NoSuchKey } from '@aws-sdk/client-s3';
import type { INestApplication } from '@nestjs/common';
import { QueueName } from '@platform/contracts';
import { type ConversionParams, ImageObjectStore, type OutputFormat, ProduceImageVariantJob } from '@platform/image-conversion';
import { enqueue, jobSnapshot, type JobSnapshot } from '@platform/queue';
import { loadConfig } from '@platform/service-kit';
import { createS3Client, ensureBucket } from '@platform/storage';
import { leaseRedisDatabase, testAppEnv } from '@platform/testing';
import Bull, { type JobId, type JobOptions } from 'bull';
import { randomUUID } from 'node:crypto';
import { ImageWorkerConfig } from '../config/image-worker.config';
import { serveImageWorker } from '../image-worker.app';

export interface StoredObject {
  data: Buffer;
  contentType?: string;
  cacheControl?: string;
}

/**
 * A bucket and a Redis database of this test file alone: every image-worker consumes the one
 * image-variants queue, and one started by another file would take these jobs and look for
 * their sources in its own bucket.
 */
export interface VariantStack {
  /** A worker on this bucket and Redis database; `overrides` add to or change its environment. */
  startWorker(overrides?: Record<string, string>): Promise<INestApplication>;
  stopWorkers(): Promise<void>;
  /** Stores a pending source as image-api does (by default for a new image id); no job is queued. */
  putPending(format: OutputFormat, source: Buffer, params?: Omit<ConversionParams, 'format'>, imageId?: string): Promise<{ imageId: string; key: string }>;
  /** Queues the variant job of a pending source as image-api does; `options` may override its job options. */
  queueJob(pending: { imageId: string; key: string }, format: OutputFormat, options?: JobOptions): Promise<void>;
  hasPending(key: string): Promise<boolean>;
  object(imageId: string, format: OutputFormat): Promise<StoredObject | null>;
  jobState(id: JobId): Promise<JobSnapshot>;
  queue: Bull.Queue;
  redisUrl: string;
  destroy(): Promise<void>;
}

export async function createVariantStack(): Promise<VariantStack> {
  const bucket = `variants-${randomUUID().slice(0, 8)}`;
  const lease = await leaseRedisDatabase();
  const s3 = createS3Client(loadConfig(ImageWorkerConfig, testAppEnv()));
  // Created here, so that a worker started while storage is unreachable finds it later.
  await ensureBucket(s3, bucket);
  const store = new ImageObjectStore(s3, bucket);
  const queue = new Bull(QueueName.ImageVariants, lease.url);
  // Leftovers of an earlier run that stopped before cleaning up.
  await queue.obliterate({ force: true });
  const started: INestApplication[] = [];
  const stopWorkers = async () => {
    await Promise.all(started.splice(0).map((app) => app.close()));
  };
  const env = (overrides: Record<string, string> = {}) => testAppEnv({ REDIS_URL: lease.url, S3_BUCKET: bucket, ...overrides });

  return {
    queue,
    redisUrl: lease.url,
    async startWorker(overrides = {}) {
      const app = await serveImageWorker(loadConfig(ImageWorkerConfig, env(overrides)));
      started.push(app);
      return app;
    },
    stopWorkers,
    async putPending(format, source, params = {}, imageId = randomUUID()) {
      const { key } = await store.putPending(imageId, format, source, { format, ...params });
      return { imageId, key };
    },
    async queueJob({ imageId, key }, format, options = {}) {
      await enqueue(queue, new ProduceImageVariantJob(imageId, format, key), { jobId: key, ...options });
    },
    hasPending: async (key) => (await store.readPending(key)) !== null,
    async object(imageId, format) {
      try {
        const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: ImageObjectStore.key(imageId, format) }));
        return { data: Buffer.from(await object.Body!.transformToByteArray()), contentType: object.ContentType, cacheControl: object.CacheControl };
      } catch (error) {
        if (error instanceof NoSuchKey) return null;
        throw error;
      }
    },
    jobState: (id) => jobSnapshot(queue, id),
    async destroy() {
      await stopWorkers();
      await queue.obliterate({ force: true });
      await queue.close();
      await lease.release();
      s3.destroy();
    },
  };
}
