import { DynamicModule, Module } from '@nestjs/common';
import { QueueName } from '@platform/contracts';
import { DatabaseModule, imageDomain } from '@platform/database';
import { QueueModule } from '@platform/queue';
import { HealthModule } from '@platform/service-kit';
import { StorageModule } from '@platform/storage';
import { ImageWorkerConfig } from './config/image-worker.config';

@Module({})
export class AppModule {
  static forRoot(config: ImageWorkerConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        HealthModule,
        DatabaseModule.forRoot(config.DATABASE_URL, imageDomain, config.DATABASE_POOL_SIZE),
        StorageModule.forRoot(config),
        QueueModule.forWorker(config),
        QueueModule.registerQueue(QueueName.ImageVariants),
      ],
      providers: [{ provide: ImageWorkerConfig, useValue: config }],
    };
  }
}
