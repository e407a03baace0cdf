import { QueueName } from '@platform/contracts';
import { loadConfig } from '@platform/service-kit';
import { describeServiceHealth } from '@platform/testing';
import { ImageWorkerConfig } from '../config/image-worker.config';
import { serveImageWorker } from '../image-worker.app';

describeServiceHealth({
  service: 'image-worker',
  start: (env) => serveImageWorker(loadConfig(ImageWorkerConfig, env)),
  envelope: 'image',
  dependencies: ['postgres', 'redis', 's3'],
  queue: QueueName.ImageVariants,
});
