import FastifyOtelInstrumentation from '@fastify/otel';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import type { IncomingMessage, RequestOptions } from 'node:http';
import { register } from 'node:module';
import { isOperationalPath } from '../http/operational-paths';
import { logSdkDiagnostics } from './sdk-diagnostics';
import { incomingUrlAttributes, originOf, outgoingUrlAttributes } from './span-urls';

/**
 * Starts the OpenTelemetry SDK for traces only (metrics stay on /metrics, logs on stdout), with
 * its exporter, sampler and propagators as the OTEL_* variables say. Runs before the app is
 * loaded: require() is hooked by the instrumentations themselves, and import by the ESM loader
 * hook registered here, which intercepts only the modules an instrumentation asks for.
 */
export async function startTracing(service: string): Promise<void> {
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, registerOptions);
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME?.trim() || service,
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes come every few seconds and say nothing about any request.
        ignoreIncomingRequestHook: (request: IncomingMessage) => isOperationalPath(request.url ?? '/'),
        startIncomingSpanHook: (request: IncomingMessage) => incomingUrlAttributes(request.url ?? '/'),
        startOutgoingSpanHook: (request: RequestOptions) => outgoingUrlAttributes(originOf(request)),
        // Background calls (an engine's language list) would each start a trace of their own.
        requireParentforOutgoingSpans: true,
      }),
      // fetch(), which the LibreTranslate engine calls with.
      new UndiciInstrumentation({ requireParentforSpans: true, startSpanHook: (request) => outgoingUrlAttributes(request.origin) }),
      // Route and handler spans inside the HTTP server span; one span per lifecycle hook, or an
      // exception event for every 4xx, would only add noise.
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        instrumentHooks: false,
        recordExceptions: false,
        ignorePaths: ({ url }) => isOperationalPath(url),
        requestHook: (span, request) => span.setAttributes(incomingUrlAttributes(request.url)),
      }),
      // Queues poll Redis and the outbox relay polls Postgres all the time: only commands of a
      // traced operation count. Statements carry placeholders, never values; Redis commands are
      // named without their arguments, which hold keys of idempotent answers and Lua arguments.
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });
  // After the SDK's constructor, which would otherwise print OTEL_LOG_LEVEL's messages as plain text.
  logSdkDiagnostics(service);
  sdk.start();
  // The loader thread must know every hooked module before the app's imports reach it.
  await waitForAllMessagesAcknowledged();
}
