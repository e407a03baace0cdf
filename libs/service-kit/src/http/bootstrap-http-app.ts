import { DynamicModule, INestApplication, Type, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { ServiceName } from '@platform/contracts';
import { ApiError, EnvelopeExceptionFilter, ErrorEnvelope, validationExceptionFactory } from '@platform/errors';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
// Bundled into each app at build time, so a container started without npm knows its version too.
import packageJson from '../../../../package.json';
import { ServiceConfig } from '../config/service.config';
import { createRootLogger, JsonLogger } from '../logging/json.logger';
import { RequestLogController } from '../logging/request-log.controller';
import { MetricsRegistry } from '../metrics/metrics.registry';

export interface HttpAppOptions {
  service: ServiceName;
  module: Type<unknown> | DynamicModule;
  config: ServiceConfig;
  envelope: ErrorEnvelope;
  /** Hard cap on request body bytes, enforced before parsing. */
  bodyLimit?: number;
  openapi?: { title: string; description: string; auth?: 'bearer' | 'access-token' };
  /** Runs after the app exists and before it listens (plugins such as multipart). */
  configure?: (app: NestFastifyApplication) => Promise<void> | void;
}

/** Paths that carry no customer data and must answer plain HTTP probes from the platform. */
const OPERATIONAL_PATHS = new Set(['/health', '/health/live', '/metrics']);

function tlsOptions(config: ServiceConfig) {
  if (!config.TLS_CERT_FILE || !config.TLS_KEY_FILE) return undefined;
  return { cert: readFileSync(config.TLS_CERT_FILE), key: readFileSync(config.TLS_KEY_FILE) };
}

function trustProxy(config: ServiceConfig): string[] | boolean {
  return config.TRUSTED_PROXIES.length > 0 ? config.TRUSTED_PROXIES : false;
}

/** Creates a Fastify-backed Nest app with our error envelope, logs, metrics and OpenAPI, and listens. */
export async function bootstrapHttpApp(options: HttpAppOptions): Promise<NestFastifyApplication> {
  const { config, envelope } = options;
  const logger = createRootLogger(options.service, config.LOG_LEVEL);
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    logController: new RequestLogController(),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    trustProxy: trustProxy(config),
    https: tlsOptions(config),
  } as ConstructorParameters<typeof FastifyAdapter>[0]);

  const app = await NestFactory.create<NestFastifyApplication>(options.module, adapter, {
    logger: new JsonLogger(logger),
    abortOnError: false,
    // Fastify's own JSON parser is enough; Nest's would add form bodies, which our APIs never take.
    bodyParser: false,
  });
  app.useGlobalFilters(new EnvelopeExceptionFilter(envelope));
  app.useGlobalPipes(
    new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true, exceptionFactory: validationExceptionFactory }),
  );

  const fastify = app.getHttpAdapter().getInstance();
  // A text/plain body would reach validation as a bare string; refuse it as 415 like any other type.
  fastify.removeContentTypeParser('text/plain');
  const metrics = app.get(MetricsRegistry);
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (config.NODE_ENV === 'production' && request.protocol !== 'https' && !OPERATIONAL_PATHS.has(request.url.split('?')[0])) {
      throw new ApiError(403, 'https_required', 'This service accepts HTTPS only');
    }
  });
  fastify.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions?.url ?? 'unmatched';
    metrics.httpDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  if (options.openapi && config.OPENAPI_ENABLED) await serveOpenApi(app, options.openapi);
  await options.configure?.(app);
  await app.listen(config.PORT, config.HOST);
  logger.info({ url: await app.getUrl(), tls: Boolean(tlsOptions(config)) }, `${options.service} listening`);
  return app;
}

async function serveOpenApi(app: NestFastifyApplication, openapi: NonNullable<HttpAppOptions['openapi']>) {
  let builder = new DocumentBuilder().setTitle(openapi.title).setDescription(openapi.description).setVersion(packageJson.version);
  if (openapi.auth === 'bearer') builder = builder.addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key: svc_test_... or svc_live_...' });
  if (openapi.auth === 'access-token') builder = builder.addApiKey({ type: 'apiKey', in: 'header', name: 'X-Access-Token' }, 'access-token');
  // The document is built lazily: controllers are only known once the app is initialised.
  let document: unknown;
  app.getHttpAdapter().getInstance().get('/openapi.json', async () => {
    document ??= SwaggerModule.createDocument(app as INestApplication, builder.build());
    return document;
  });
}
