import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboxModule } from '@platform/outbox';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity';
import { WebhookEvent } from './entities/webhook-event.entity';
import { WebhookEndpointService } from './webhook-endpoint.service';
import { WebhookEvents } from './webhook-events.service';
import { WebhookUrlGuard, type WebhookUrlPolicy } from './url-guard/webhook-url.guard';

/**
 * Webhook storage and `WebhookEvents` for processes that publish events (needs the translation
 * DatabaseModule). `withUrlGuard` adds the URL check and endpoint management, for processes that
 * register or call endpoint URLs.
 */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpoint, WebhookEvent, WebhookDelivery]), OutboxModule],
  providers: [WebhookEvents],
  exports: [WebhookEvents, TypeOrmModule, OutboxModule],
})
export class WebhooksModule {
  static withUrlGuard(policy: WebhookUrlPolicy): DynamicModule {
    return {
      module: WebhooksModule,
      providers: [{ provide: WebhookUrlGuard, useValue: new WebhookUrlGuard(policy) }, WebhookEndpointService],
      exports: [WebhookUrlGuard, WebhookEndpointService],
    };
  }
}
