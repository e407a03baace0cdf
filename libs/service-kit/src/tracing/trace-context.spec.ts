import { isSpanContextValid, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { flushTraces } from './trace-flush';
import { traceLogFields } from './trace-log-fields';
import { currentTraceContext, traceContextFrom } from './trace-context';

/** Without the SDK (tracing off): the API's no-op implementations, at no cost to anything. */
describe('trace context without the SDK', () => {
  it('carries nothing, continues nothing, logs nothing and has nothing to flush', async () => {
    expect(currentTraceContext()).toEqual({});
    const carried = traceContextFrom({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', batchId: 'job_1' });
    // The API cannot read W3C trace context by itself: no propagator, no span.
    expect(trace.getSpanContext(carried)).toBeUndefined();
    expect(traceLogFields()).toEqual({});
    await expect(flushTraces()).resolves.toBeUndefined();
    trace.getTracer('test').startActiveSpan('unrecorded', (span) => {
      expect(isSpanContextValid(span.spanContext())).toBe(false);
      expect(traceLogFields()).toEqual({});
      expect(currentTraceContext()).toEqual({});
      span.end();
    });
  });
});
