import { DynamicModule, INestApplication, Type, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { ServiceName } from '@platform/contracts';
import { ApiError, EnvelopeExceptionFilter, ErrorEnvelope, validationExceptionFactory } from '@platform/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
// Bundled into each app at build time, so a container started without npm knows its version too.
import packageJson from '../../../../package.json';
import { ServiceConfig } from '../config/service.config';
import { registerDrain } from '../lifecycle/drain';
import { createRootLogger, JsonLogger } from '../logging/json.logger';
import { RequestLogController } from '../logging/request-log.controller';
import { recordHttpMetrics } from '../metrics/http-metrics';
import { MetricsRegistry } from '../metrics/metrics.registry';
import { REDIS } from '../redis/redis.module';
import { serveApiReference } from './api-reference';
import { throttleAuthFailures } from './auth-failure-throttle';
import { refuseDeepBodies } from './body-depth';
import { clientErrorHandler } from './client-error';
import { capConnectionsPerAddress } from './connection-cap';
import { installHttpDrain } from './http-drain';
import { isOperationalPath } from './operational-paths';
import { applyRouteBodyLimits } from './route-body-limit';
import { strictTransportSecurity } from './strict-transport-security';
import { lingerAfterEarlyAnswers } from './unread-body';

export type SecurityScheme = Parameters<DocumentBuilder['addSecurity']>[1];

export interface HttpAppOptions {
  service: ServiceName;
  module: Type<unknown> | DynamicModule;
  config: ServiceConfig;
  envelope: ErrorEnvelope;
  /** Hard cap on request body bytes, enforced before parsing. */
  bodyLimit?: number;
  /** The generated OpenAPI document, with the credential schemes its routes name; /docs renders it. */
  openapi?: { title: string; description: string; securitySchemes?: Record<string, SecurityScheme> };
  /**
   * For public APIs that take credentials: responses are never stored by caches, failed
   * authentications are throttled per client address, and `beforeBody` runs before a request
   * body is read, so that a request without usable credentials is refused without reading it.
   */
  credentials?: { beforeBody?: (request: FastifyRequest) => void | Promise<void> };
  /** Runs after the app exists and before it listens (plugins such as multipart). */
  configure?: (app: NestFastifyApplication) => Promise<void> | void;
}

const isOperational = (request: FastifyRequest) => isOperationalPath(request.url);

/** A request whose body is still to come: declared by a non-zero length or a chunked encoding. */
const declaresBody = (request: FastifyRequest) => (request.headers['content-length'] ?? '0') !== '0' || request.headers['transfer-encoding'] !== undefined;

function tlsOptions(config: ServiceConfig) {
  if (!config.TLS_CERT_FILE || !config.TLS_KEY_FILE) return undefined;
  return { cert: readFileSync(config.TLS_CERT_FILE), key: readFileSync(config.TLS_KEY_FILE) };
}

/** Node's own limits on slow clients; Fastify turns `requestTimeout` off unless it is given. */
function serverOptions(config: ServiceConfig) {
  const headersTimeout = Math.min(config.HEADERS_TIMEOUT_MS, config.REQUEST_TIMEOUT_MS);
  // Node looks for overdue requests on this interval (30 s by default), so a short timeout needs a short interval.
  const connectionsCheckingInterval = Math.max(250, Math.min(5000, Math.floor(headersTimeout / 4)));
  const http = { headersTimeout, requestTimeout: config.REQUEST_TIMEOUT_MS, connectionsCheckingInterval };
  const tls = tlsOptions(config);
  return {
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_MS,
    connectionTimeout: config.CONNECTION_TIMEOUT_MS,
    http,
    https: tls && { ...tls, ...http },
    // Shutdown is ours (installHttpDrain), with the app's envelope instead of Fastify's 503 body.
    return503OnClosing: false,
  };
}

function trustProxy(config: ServiceConfig): string[] | boolean {
  return config.TRUSTED_PROXIES.length > 0 ? config.TRUSTED_PROXIES : false;
}

/** Creates a Fastify-backed Nest app with our error envelope, logs, metrics and OpenAPI, and listens. */
export async function bootstrapHttpApp(options: HttpAppOptions): Promise<NestFastifyApplication> {
  const { config, envelope } = options;
  const logger = createRootLogger(options.service, config.LOG_LEVEL);
  const errors = new EnvelopeExceptionFilter(envelope, config.UNAVAILABLE_RETRY_AFTER_SECONDS);
  const hsts = strictTransportSecurity(config);
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    logController: new RequestLogController(),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    trustProxy: trustProxy(config),
    ...serverOptions(config),
    clientErrorHandler: clientErrorHandler(envelope, hsts),
    // Fastify answers a URL it cannot decode (`%ff`) itself, in its own format, unless given a handler.
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => errors.reply(error, request, reply),
  } as ConstructorParameters<typeof FastifyAdapter>[0]);

  const app = await NestFactory.create<NestFastifyApplication>(options.module, adapter, {
    logger: new JsonLogger(logger),
    abortOnError: false,
    // Fastify's own JSON parser is enough; Nest's would add form bodies, which our APIs never take.
    bodyParser: false,
  });
  app.useGlobalFilters(errors);
  app.useGlobalPipes(
    new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true, exceptionFactory: validationExceptionFactory }),
  );

  const fastify = app.getHttpAdapter().getInstance();
  // A text/plain body would reach validation as a bare string; refuse it as 415 like any other type.
  fastify.removeContentTypeParser('text/plain');
  refuseDeepBodies(fastify);
  applyRouteBodyLimits(fastify);
  registerDrain(app, installHttpDrain(fastify, config.UNAVAILABLE_RETRY_AFTER_SECONDS));
  capConnectionsPerAddress(fastify, config.MAX_CONNECTIONS_PER_IP, config.TRUSTED_PROXIES);
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (config.NODE_ENV === 'production' && request.protocol !== 'https' && !isOperational(request)) {
      throw new ApiError(403, 'https_required', 'This service accepts HTTPS only');
    }
  });
  if (options.credentials) {
    if (config.AUTH_FAILURES_PER_MINUTE > 0) throttleAuthFailures(fastify, app.get<Redis>(REDIS), { service: options.service, perMinute: config.AUTH_FAILURES_PER_MINUTE, exempt: isOperational });
    const beforeBody = options.credentials.beforeBody;
    if (beforeBody) {
      fastify.addHook('onRequest', async (request) => {
        if (declaresBody(request)) await beforeBody(request);
      });
    }
  }
  fastify.addHook('onSend', async (request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    // HTTPS: TLS on this socket, or X-Forwarded-Proto: https from a trusted proxy.
    if (request.protocol === 'https') reply.header('strict-transport-security', hsts);
    // Credentials and account data must not be kept by shared or browser caches.
    if (options.credentials && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
  lingerAfterEarlyAnswers(fastify, { maxBytes: config.UNREAD_BODY_DISCARD_BYTES, maxMs: config.UNREAD_BODY_DISCARD_MS });
  recordHttpMetrics(fastify, app.get(MetricsRegistry));

  if (options.openapi && config.OPENAPI_ENABLED) await serveOpenApi(app, options.openapi);
  await options.configure?.(app);
  await app.listen(config.PORT, config.HOST);
  logger.info({ url: await app.getUrl(), tls: Boolean(tlsOptions(config)) }, `${options.service} listening`);
  return app;
}

async function serveOpenApi(app: NestFastifyApplication, openapi: NonNullable<HttpAppOptions['openapi']>) {
  const builder = new DocumentBuilder().setTitle(openapi.title).setDescription(openapi.description).setVersion(packageJson.version);
  for (const [name, scheme] of Object.entries(openapi.securitySchemes ?? {})) builder.addSecurity(name, scheme);
  // The document is built lazily: controllers are only known once the app is initialised.
  let document: unknown;
  const fastify = app.getHttpAdapter().getInstance();
  fastify.get('/openapi.json', async () => {
    document ??= SwaggerModule.createDocument(app as INestApplication, builder.build());
    return document;
  });
  serveApiReference(fastify, openapi.title);
}
