import { imageEnvelope } from '@platform/errors';
import { bootstrapHttpApp } from '@platform/service-kit';
import { AppModule } from './app.module';
import { ImageWorkerConfig } from './config/image-worker.config';

/** Produces image variants from jobs; over HTTP it answers only /health and /metrics. */
export function serveImageWorker(config: ImageWorkerConfig) {
  return bootstrapHttpApp({ service: 'image-worker', module: AppModule.forRoot(config), config, envelope: imageEnvelope });
}
