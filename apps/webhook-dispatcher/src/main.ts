import 'reflect-metadata';
import { runService } from '@platform/service-kit';
import { WebhookDispatcherConfig } from './config/webhook-dispatcher.config';
import { serveWebhookDispatcher } from './webhook-dispatcher.app';

void runService(WebhookDispatcherConfig, { serve: serveWebhookDispatcher });
