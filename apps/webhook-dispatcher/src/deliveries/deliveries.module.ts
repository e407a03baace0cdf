import { DynamicModule, Module } from '@nestjs/common';
import { QueueName } from '@platform/contracts';
import { QueueModule } from '@platform/queue';
import { webhookUrlPolicy, WebhooksModule } from '@platform/webhooks';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { DeliveryLog } from './delivery-log.service';
import { EndpointLanes } from './endpoint-lanes.service';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookDeliveryWorker } from './webhook-delivery.worker';
import { WebhookRetention } from './webhook-retention.service';

/** Consumes the delivery queue: one attempt per job, each recorded, failures rescheduled, each endpoint in its own lane. */
@Module({})
export class DeliveriesModule {
  static forRoot(config: WebhookDispatcherConfig): DynamicModule {
    return {
      module: DeliveriesModule,
      imports: [WebhooksModule.withUrlGuard(webhookUrlPolicy(config)), QueueModule.registerQueue(QueueName.Webhooks)],
      providers: [{ provide: WebhookDispatcherConfig, useValue: config }, EndpointLanes, DeliveryLog, WebhookDeliveryService, WebhookDeliveryWorker, WebhookRetention],
    };
  }
}
