import { QueueName } from '@platform/contracts';
import { loadConfig } from '@platform/service-kit';
import { describeServiceHealth } from '@platform/testing';
import { serveBatchWorker } from '../batch-worker.app';
import { BatchWorkerConfig } from '../config/batch-worker.config';

describeServiceHealth({
  service: 'batch-worker',
  start: (env) => serveBatchWorker(loadConfig(BatchWorkerConfig, env)),
  envelope: 'translation',
  dependencies: ['postgres', 'redis'],
  queue: QueueName.Batches,
});
