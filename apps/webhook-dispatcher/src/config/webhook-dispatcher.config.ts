import { DefaultPort } from '@platform/contracts';
import { WorkerConfig } from '@platform/queue';

export class WebhookDispatcherConfig extends WorkerConfig {
  PORT = DefaultPort['webhook-dispatcher'];
}
