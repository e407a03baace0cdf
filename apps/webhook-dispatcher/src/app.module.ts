import { DynamicModule, Module } from '@nestjs/common';
import { QueueName } from '@platform/contracts';
import { DatabaseModule, translationDomain } from '@platform/database';
import { OutboxModule } from '@platform/outbox';
import { QueueModule } from '@platform/queue';
import { HealthModule } from '@platform/service-kit';
import { WebhookDispatcherConfig } from './config/webhook-dispatcher.config';
import { DeliveriesModule } from './deliveries/deliveries.module';

@Module({})
export class AppModule {
  static forRoot(config: WebhookDispatcherConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        HealthModule,
        DatabaseModule.forRoot(config, translationDomain),
        QueueModule.forWorker(config),
        // Deliveries published anywhere, and retries scheduled here, reach Redis through this relay.
        OutboxModule.forRelay([QueueName.Webhooks]),
        DeliveriesModule.forRoot(config),
      ],
    };
  }
}
