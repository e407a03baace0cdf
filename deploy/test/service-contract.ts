import { DefaultPort, QueueName, type ServiceName } from '@platform/contracts';
import { configVariables } from '@platform/service-kit';
/* eslint-disable no-restricted-imports -- manifests are checked against what each app really reads */
import { BatchWorkerConfig } from '../../apps/batch-worker/src/config/batch-worker.config';
import { ConsoleConfig } from '../../apps/console/src/config/console.config';
import { ImageApiConfig } from '../../apps/image-api/src/config/image-api.config';
import { ImageWorkerConfig } from '../../apps/image-worker/src/config/image-worker.config';
import { TranslateApiConfig } from '../../apps/translate-api/src/config/translate-api.config';
import { WebhookDispatcherConfig } from '../../apps/webhook-dispatcher/src/config/webhook-dispatcher.config';
/* eslint-enable no-restricted-imports */

export interface ServiceContract {
  /** Environment variables the service reads: its validated config class's properties. */
  env: string[];
  port: number;
  /** True for the public HTTP APIs; workers serve only /health and /metrics. */
  api: boolean;
  /** The Bull queue a worker consumes. */
  queue?: string;
  /** Schema whose migrations the service's `migrate` command applies. */
  migrates?: 'translation' | 'image';
}

const envOf = (config: new () => object) => configVariables(config).sort();

/** What the code says about each deployable service; manifests and images must agree with it. */
export const SERVICES: Record<ServiceName, ServiceContract> = {
  'translate-api': { env: envOf(TranslateApiConfig), port: DefaultPort['translate-api'], api: true, migrates: 'translation' },
  'batch-worker': { env: envOf(BatchWorkerConfig), port: DefaultPort['batch-worker'], api: false, queue: QueueName.Batches },
  'webhook-dispatcher': { env: envOf(WebhookDispatcherConfig), port: DefaultPort['webhook-dispatcher'], api: false, queue: QueueName.Webhooks },
  'image-api': { env: envOf(ImageApiConfig), port: DefaultPort['image-api'], api: true, migrates: 'image' },
  'image-worker': { env: envOf(ImageWorkerConfig), port: DefaultPort['image-worker'], api: false, queue: QueueName.ImageVariants },
  console: { env: envOf(ConsoleConfig), port: DefaultPort.console, api: true },
};

/** Every service answers readiness here (503 while a dependency is down). */
export const HEALTH_PATH = '/health';

/** And liveness here: 200 while the process serves requests, dependencies unchecked. */
export const LIVENESS_PATH = '/health/live';

/** The list Bull keeps waiting jobs of a queue in (the default `bull` prefix). */
export const bullWaitList = (queue: string) => `bull:${queue}:wait`;
