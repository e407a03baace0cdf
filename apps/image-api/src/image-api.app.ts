import multipart from '@fastify/multipart';
import { imageEnvelope } from '@platform/errors';
import { bootstrapHttpApp } from '@platform/service-kit';
import { AppModule } from './app.module';
import { ImageApiConfig } from './config/image-api.config';
import { SERVICE_TITLE } from './info/info.controller';

export function serveImageApi(config: ImageApiConfig) {
  return bootstrapHttpApp({
    service: 'image-api',
    module: AppModule.forRoot(config),
    config,
    envelope: imageEnvelope,
    openapi: { title: SERVICE_TITLE, description: 'Images converted to WebP and AVIF, stored and served by a CDN', auth: 'access-token' },
    // Limits are set per route when the form is read (upload.reader.ts).
    configure: async (app) => {
      await app.register(multipart);
    },
  });
}
