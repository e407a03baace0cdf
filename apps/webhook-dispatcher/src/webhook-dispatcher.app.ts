import { translationEnvelope } from '@platform/errors';
import { bootstrapHttpApp } from '@platform/service-kit';
import { AppModule } from './app.module';
import { WebhookDispatcherConfig } from './config/webhook-dispatcher.config';

/** Consumes webhook deliveries; over HTTP it answers only /health and /metrics. */
export function serveWebhookDispatcher(config: WebhookDispatcherConfig) {
  return bootstrapHttpApp({ service: 'webhook-dispatcher', module: AppModule.forRoot(config), config, envelope: translationEnvelope });
}
