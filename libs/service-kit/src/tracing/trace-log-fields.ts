import { isSpanContextValid, trace } from '@opentelemetry/api';

/** `trace_id` and `span_id` of the active span for a log line, so that a line leads to its trace. */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan()?.spanContext();
  return span && isSpanContextValid(span) ? { trace_id: span.traceId, span_id: span.spanId } : {};
}
