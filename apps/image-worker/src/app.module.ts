import { DynamicModule, Module } from '@nestjs/common';
import { DatabaseModule, imageDomain } from '@platform/database';
import { ImageConversionModule } from '@platform/image-conversion';
import { QueueModule } from '@platform/queue';
import { HealthModule } from '@platform/service-kit';
import { StorageModule } from '@platform/storage';
import { ImageWorkerConfig } from './config/image-worker.config';
import { ImageVariantsModule } from './variants/image-variants.module';

@Module({})
export class AppModule {
  static forRoot(config: ImageWorkerConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        HealthModule,
        DatabaseModule.forRoot(config, imageDomain),
        StorageModule.forRoot(config),
        QueueModule.forWorker(config),
        ImageConversionModule.forRoot(config),
        ImageVariantsModule.forRoot({ intervalMs: config.VARIANT_SWEEP_INTERVAL_MS, maxRounds: config.VARIANT_MAX_ROUNDS }),
      ],
      providers: [{ provide: ImageWorkerConfig, useValue: config }],
    };
  }
}
