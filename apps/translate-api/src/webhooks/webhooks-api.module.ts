import { DynamicModule, Module } from '@nestjs/common';
import { webhookUrlPolicy, WebhooksModule } from '@platform/webhooks';
import { TranslateApiConfig } from '../config/translate-api.config';
import { WebhooksController } from './webhooks.controller';

/** /api/v1/webhook: the account's endpoint, its secret and its delivery log (scope `manage`). */
@Module({})
export class WebhooksApiModule {
  static forRoot(config: TranslateApiConfig): DynamicModule {
    return {
      module: WebhooksApiModule,
      imports: [WebhooksModule.withUrlGuard(webhookUrlPolicy(config))],
      controllers: [WebhooksController],
    };
  }
}
