import { DynamicModule, Module } from '@nestjs/common';
import { QueueName } from '@platform/contracts';
import { DatabaseModule, translationDomain } from '@platform/database';
import { QueueModule } from '@platform/queue';
import { HealthModule } from '@platform/service-kit';
import { BatchWorkerConfig } from './config/batch-worker.config';

@Module({})
export class AppModule {
  static forRoot(config: BatchWorkerConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        HealthModule,
        DatabaseModule.forRoot(config.DATABASE_URL, translationDomain, config.DATABASE_POOL_SIZE),
        QueueModule.forWorker(config),
        QueueModule.registerQueue(QueueName.Batches),
      ],
      providers: [{ provide: BatchWorkerConfig, useValue: config }],
    };
  }
}
