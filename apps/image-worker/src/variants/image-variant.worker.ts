import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { QueueName } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { type ConversionParams, encodeTarget, ImageConverter, ImageObjectStore, ProduceImageVariantJob } from '@platform/image-conversion';
import { PermanentJobError, ProcessJob, QueueWorker, WorkerRuntime } from '@platform/queue';
import type { Job, Queue } from 'bull';

/**
 * Makes the second format of a converted image from the source image-api left in storage. Every
 * step may run again (a retry, a second delivery, the sweep): an existing variant is not made
 * twice, and the source is deleted only once the variant is stored.
 */
@Injectable()
export class ImageVariantWorker extends QueueWorker {
  constructor(
    @InjectQueue(QueueName.ImageVariants) queue: Queue,
    runtime: WorkerRuntime,
    private readonly converter: ImageConverter,
    private readonly store: ImageObjectStore,
  ) {
    super(queue, runtime);
  }

  @ProcessJob(ProduceImageVariantJob)
  async produce(job: Job<ProduceImageVariantJob>): Promise<string> {
    const { imageId, format, sourceKey } = job.data;
    if (await this.store.has(imageId, format)) {
      await this.store.deletePending(sourceKey);
      return 'already stored';
    }
    const pending = await this.store.readPending(sourceKey);
    // Finished by an earlier delivery of this job, which deleted its source.
    if (!pending) return 'nothing to do';
    await this.store.put(imageId, format, await this.encode(sourceKey, pending.source, { format, ...pending.params }));
    await this.store.deletePending(sourceKey);
    return 'stored';
  }

  private async encode(sourceKey: string, source: Buffer, params: ConversionParams): Promise<Buffer> {
    try {
      return (await this.converter.convert(source, encodeTarget(params))).data;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // No attempt can decode this source. It goes too: kept, the sweep would queue it again
      // whenever Bull forgets the failed job, and it is an original upload that may carry EXIF.
      await this.store.deletePending(sourceKey);
      throw new PermanentJobError(error.message);
    }
  }
}
