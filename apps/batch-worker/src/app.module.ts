import { DynamicModule, Module } from '@nestjs/common';
import { DatabaseModule, translationDomain } from '@platform/database';
import { QueueModule } from '@platform/queue';
import { QuotaModule } from '@platform/quota';
import { HealthModule } from '@platform/service-kit';
import { EnginesModule } from '@platform/translation-engines';
import { TranslationPipelineModule } from '@platform/translation-pipeline';
import { BatchProcessingModule } from './batches/batch-processing.module';
import { BatchWorkerConfig } from './config/batch-worker.config';

@Module({})
export class AppModule {
  static forRoot(config: BatchWorkerConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        HealthModule,
        DatabaseModule.forRoot(config, translationDomain),
        QueueModule.forWorker(config),
        // Batches are charged at submission; the worker only refunds, so no quota limit applies here.
        QuotaModule.forRoot({ sandboxMonthlyWords: 0 }),
        EnginesModule.forRoot(config),
        TranslationPipelineModule.forRoot(config),
        BatchProcessingModule.forRoot(
          { intervalMs: config.BATCH_CLEANUP_INTERVAL_MS },
          { sampleRate: config.REVIEW_SAMPLE_RATE, sandboxDelayMs: config.REVIEW_SANDBOX_DELAY_MS },
          {
            intervalMs: config.BATCH_RECONCILE_INTERVAL_MS,
            requeueAfterMs: config.BATCH_REQUEUE_AFTER_MS,
            maxRecoveries: config.BATCH_MAX_RECOVERIES,
            stuckAfterMs: config.BATCH_STUCK_AFTER_MS,
          },
        ),
      ],
      providers: [{ provide: BatchWorkerConfig, useValue: config }],
    };
  }
}
