import { translationEnvelope } from '@platform/errors';
import { bootstrapHttpApp } from '@platform/service-kit';
import { AppModule } from './app.module';
import { BatchWorkerConfig } from './config/batch-worker.config';

/** Consumes translation batches; over HTTP it answers only /health and /metrics. */
export function serveBatchWorker(config: BatchWorkerConfig) {
  return bootstrapHttpApp({ service: 'batch-worker', module: AppModule.forRoot(config), config, envelope: translationEnvelope });
}
