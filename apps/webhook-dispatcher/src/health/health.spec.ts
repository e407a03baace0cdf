import { QueueName } from '@platform/contracts';
import { loadConfig } from '@platform/service-kit';
import { describeServiceHealth, WEBHOOK_TEST_ENV } from '@platform/testing';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { serveWebhookDispatcher } from '../webhook-dispatcher.app';

describeServiceHealth({
  service: 'webhook-dispatcher',
  // Like every dispatcher under test: it may pick up deliveries that other test files queue.
  start: (env) => serveWebhookDispatcher(loadConfig(WebhookDispatcherConfig, { ...env, ...WEBHOOK_TEST_ENV })),
  envelope: 'translation',
  dependencies: ['postgres', 'redis'],
  queue: QueueName.Webhooks,
});
