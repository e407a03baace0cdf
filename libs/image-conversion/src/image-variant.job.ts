import { QueueName } from '@platform/contracts';
import type { OutputFormat } from './image-formats';

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
