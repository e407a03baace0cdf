import { QueueName } from '@platform/contracts';
import { loadConfig } from '@platform/service-kit';
import { describeServiceHealth } from '@platform/testing';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { serveWebhookDispatcher } from '../webhook-dispatcher.app';

describeServiceHealth({
  service: 'webhook-dispatcher',
  start: (env) => serveWebhookDispatcher(loadConfig(WebhookDispatcherConfig, env)),
  envelope: 'translation',
  dependencies: ['postgres', 'redis'],
  queue: QueueName.Webhooks,
});
