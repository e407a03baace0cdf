import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { traceContextFrom } from '@platform/service-kit';
import type { Job } from 'bull';

const tracer = trace.getTracer('@platform/queue');

/**
 * Runs a job's attempt in a span of its own, a child of the span that queued it (the trace
 * context its producer put in the job's data), so that one trace runs from a request through
 * every job it causes. Without tracing the span is a no-op.
 */
export function inJobSpan<T>(queue: string, job: Job, attempt: () => Promise<T>): Promise<T> {
  const attributes = {
    'messaging.system': 'bull',
    'messaging.operation.type': 'process',
    'messaging.destination.name': queue,
    'messaging.message.id': String(job.id),
    'bull.job.name': job.name,
    'bull.job.attempt': job.attemptsMade + 1,
  };
  return tracer.startActiveSpan(`process ${queue}`, { kind: SpanKind.CONSUMER, attributes }, traceContextFrom(job.data ?? {}), async (span) => {
    try {
      return await attempt();
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}
