import 'reflect-metadata';
import { runService } from '@platform/service-kit';
import { ImageWorkerConfig } from './config/image-worker.config';
import { serveImageWorker } from './image-worker.app';

void runService(ImageWorkerConfig, { serve: serveImageWorker });
