import 'reflect-metadata';
import { runService } from '@platform/service-kit';
import { serveBatchWorker } from './batch-worker.app';
import { BatchWorkerConfig } from './config/batch-worker.config';

void runService(BatchWorkerConfig, { serve: serveBatchWorker });
