import { context, propagation, ROOT_CONTEXT, type Context } from '@opentelemetry/api';

/** W3C trace context as it travels in a job's data, an outbox row or a request's headers. */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

const W3C_FIELDS = ['traceparent', 'tracestate'] as const;

function w3cFields(source: Record<string, unknown>): TraceCarrier {
  const carrier: TraceCarrier = {};
  for (const field of W3C_FIELDS) {
    if (typeof source[field] === 'string') carrier[field] = source[field];
  }
  return carrier;
}

/**
 * The trace context of the active span, to be carried to where the work goes on. Empty when
 * tracing is off (the API's propagator is a no-op) or no span is active, so nothing is added.
 */
export function currentTraceContext(): TraceCarrier {
  const carrier: Record<string, unknown> = {};
  propagation.inject(context.active(), carrier);
  return w3cFields(carrier);
}

/** The context a carrier names, to continue its trace; a fresh root when it names none. */
export function traceContextFrom(source: object): Context {
  return propagation.extract(ROOT_CONTEXT, w3cFields(source as Record<string, unknown>));
}
