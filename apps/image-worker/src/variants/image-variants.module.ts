import { DynamicModule, Module } from '@nestjs/common';
import { QueueName } from '@platform/contracts';
import { QueueModule } from '@platform/queue';
import { ImageVariantWorker } from './image-variant.worker';
import { PendingVariantSweep, VARIANT_SWEEP_OPTIONS, type VariantSweepOptions } from './pending-variant.sweep';
import { VariantFailures } from './variant-failures.service';

/** Consumes the image-variants queue and sweeps for pending sources the queue never heard of. */
@Module({})
export class ImageVariantsModule {
  static forRoot(sweep: VariantSweepOptions): DynamicModule {
    return {
      module: ImageVariantsModule,
      imports: [QueueModule.registerQueue(QueueName.ImageVariants)],
      providers: [{ provide: VARIANT_SWEEP_OPTIONS, useValue: sweep }, ImageVariantWorker, PendingVariantSweep, VariantFailures],
    };
  }
}
