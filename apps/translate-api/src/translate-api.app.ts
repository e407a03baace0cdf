import { bootstrapHttpApp } from '@platform/service-kit';
import { AppModule } from './app.module';
import { translateApiEnvelope } from './compat/compat.envelope';
import { TranslateApiConfig } from './config/translate-api.config';
import { checkCredentialsBeforeBody } from './credentials/credentials-before-body';

/** OpenAPI security schemes: both are opaque bearer secrets with a prefix, not JWTs. */
export const SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'API key: `svc_test_` (sandbox) or `svc_live_` followed by at least 32 base62 characters (keys are issued with 40). An opaque secret, not a JWT.',
  },
  reviewer: {
    type: 'http',
    scheme: 'bearer',
    description: 'Reviewer token for the review routes: `rvw_` followed by 40 base62 characters. API keys are not accepted there.',
  },
} as const;

export function serveTranslateApi(config: TranslateApiConfig) {
  return bootstrapHttpApp({
    service: 'translate-api',
    module: AppModule.forRoot(config),
    config,
    envelope: translateApiEnvelope(config.COMPAT_APIS),
    bodyLimit: config.MAX_BODY_BYTES,
    openapi: { title: 'Translation API', description: 'Text, HTML and JSON into the official EU languages', securitySchemes: SECURITY_SCHEMES },
    credentials: { beforeBody: checkCredentialsBeforeBody },
  });
}
