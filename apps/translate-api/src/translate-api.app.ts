import { translationEnvelope } from '@platform/errors';
import { bootstrapHttpApp } from '@platform/service-kit';
import { AppModule } from './app.module';
import { TranslateApiConfig } from './config/translate-api.config';

export function serveTranslateApi(config: TranslateApiConfig) {
  return bootstrapHttpApp({
    service: 'translate-api',
    module: AppModule.forRoot(config),
    config,
    envelope: translationEnvelope,
    bodyLimit: config.MAX_BODY_BYTES,
    openapi: { title: 'Translation API', description: 'Text, HTML and JSON into the official EU languages', auth: 'bearer' },
  });
}
