import { DefaultPort } from '@platform/contracts';
import { WorkerConfig } from '@platform/queue';

export class BatchWorkerConfig extends WorkerConfig {
  PORT = DefaultPort['batch-worker'];
}
