import { DynamicModule, Module } from '@nestjs/common';
import { BatchesModule } from '@platform/batches';
import { QueueName } from '@platform/contracts';
import { OutboxModule } from '@platform/outbox';
import { QueueModule } from '@platform/queue';
import { ReviewModule, type ReviewOptions } from '@platform/review';
import { BATCH_RECONCILER_OPTIONS, BatchReconciler, type BatchReconcilerOptions } from './batch-reconciler.service';
import { BATCH_RETENTION_OPTIONS, BatchRetention, type BatchRetentionOptions } from './batch-retention.service';
import { ReviewSimulator } from './review-simulator.service';
import { TranslateBatchWorker } from './translate-batch.worker';

/**
 * Consumes the batches queue, relays its outbox rows (so batches accepted while Redis was away
 * are queued once it is back), queues again the jobs Redis lost and fails those stuck, samples
 * review-tier jobs for review (approving sandbox ones by itself) and deletes expired jobs.
 */
@Module({})
export class BatchProcessingModule {
  static forRoot(retention: BatchRetentionOptions, review: Pick<ReviewOptions, 'sampleRate' | 'sandboxDelayMs'>, reconciler: BatchReconcilerOptions): DynamicModule {
    return {
      module: BatchProcessingModule,
      imports: [BatchesModule, ReviewModule.forRoot(review), QueueModule.registerQueue(QueueName.Batches), OutboxModule.forRelay([QueueName.Batches])],
      providers: [
        { provide: BATCH_RETENTION_OPTIONS, useValue: retention },
        { provide: BATCH_RECONCILER_OPTIONS, useValue: reconciler },
        TranslateBatchWorker,
        BatchRetention,
        BatchReconciler,
        ReviewSimulator,
      ],
    };
  }
}
