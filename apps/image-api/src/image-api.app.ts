import multipart from '@fastify/multipart';
import { imageEnvelope } from '@platform/errors';
import { bootstrapHttpApp } from '@platform/service-kit';
import { AppModule } from './app.module';
import { ImageApiConfig } from './config/image-api.config';
import { SERVICE_TITLE } from './info/info.controller';

export const SECURITY_SCHEMES = {
  // OpenAPI has no form-field location for a key: the form alternative is told here and in the form's schema.
  'access-token': {
    type: 'apiKey',
    in: 'header',
    name: 'X-Access-Token',
    description: 'Access token: `img_` followed by 40 base62 characters. Multipart routes also take it as the form field access_token, which must come before the files.',
  },
} as const;

export function serveImageApi(config: ImageApiConfig) {
  return bootstrapHttpApp({
    service: 'image-api',
    module: AppModule.forRoot(config),
    config,
    envelope: imageEnvelope,
    openapi: {
      title: SERVICE_TITLE,
      description: 'Images converted to WebP and AVIF, stored and served by a CDN',
      securitySchemes: SECURITY_SCHEMES,
    },
    credentials: {},
    // Limits are set per route when the form is read (upload.reader.ts).
    configure: async (app) => {
      await app.register(multipart);
    },
  });
}
