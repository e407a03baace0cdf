import { QueueName } from '@platform/contracts';
import { enqueue } from '@platform/queue';
import type { Job, Queue } from 'bull';
import type { OutputFormat } from './image-formats';
import type { PendingVariant } from './image-object.store';

/** Produce `format` of an image from the pending source at `sourceKey`, and store it. */
export class ProduceImageVariantJob {
  static readonly queue = QueueName.ImageVariants;
  static readonly retry = { attempts: 6, backoffMs: 2_000, maxBackoffMs: 5 * 60_000 };

  constructor(
    readonly imageId: string,
    readonly format: OutputFormat,
    readonly sourceKey: string,
  ) {}
}

/**
 * Queues the job of a pending source under the source's key as job id, whoever queues it (image-api
 * after a conversion, image-worker's sweep): Bull ignores an id it still holds, so it is never
 * queued twice.
 */
export function enqueueVariant(queue: Queue, { key, imageId, format }: Pick<PendingVariant, 'key' | 'imageId' | 'format'>): Promise<Job<ProduceImageVariantJob>> {
  return enqueue(queue, new ProduceImageVariantJob(imageId, format, key), { jobId: key });
}
