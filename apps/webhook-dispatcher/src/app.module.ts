import { DynamicModule, Module } from '@nestjs/common';
import { QueueName } from '@platform/contracts';
import { DatabaseModule, translationDomain } from '@platform/database';
import { QueueModule } from '@platform/queue';
import { HealthModule } from '@platform/service-kit';
import { WebhookDispatcherConfig } from './config/webhook-dispatcher.config';

@Module({})
export class AppModule {
  static forRoot(config: WebhookDispatcherConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        HealthModule,
        DatabaseModule.forRoot(config.DATABASE_URL, translationDomain, config.DATABASE_POOL_SIZE),
        QueueModule.forWorker(config),
        QueueModule.registerQueue(QueueName.Webhooks),
      ],
      providers: [{ provide: WebhookDispatcherConfig, useValue: config }],
    };
  }
}
