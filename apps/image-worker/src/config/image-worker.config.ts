import { DefaultPort } from '@platform/contracts';
import { WorkerConfig } from '@platform/queue';
import { withStorageConfig } from '@platform/storage';

export class ImageWorkerConfig extends withStorageConfig(WorkerConfig) {
  PORT = DefaultPort['image-worker'];
}
