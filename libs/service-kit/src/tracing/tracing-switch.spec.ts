import { describe, expect, it } from 'vitest';
import { tracingRequested } from './tracing-switch';

describe('tracingRequested', () => {
  it.each([
    [{}, false],
    [{ OTEL_SERVICE_NAME: 'translate-api', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, true],
    [{ OTEL_TRACES_EXPORTER: ' console ' }, true],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, false],
    [{ OTEL_TRACES_EXPORTER: 'none,otlp' }, false],
    [{ OTEL_TRACES_EXPORTER: ',' }, false],
    [{ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, false],
    [{ OTEL_SDK_DISABLED: ' TRUE ', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, false],
    // As the SDK reads it: anything but "true" leaves it enabled.
    [{ OTEL_SDK_DISABLED: '1', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    [{ OTEL_SDK_DISABLED: 'false', OTEL_TRACES_EXPORTER: 'otlp' }, true],
  ])('%j: %s', (env, requested) => {
    expect(tracingRequested(env)).toBe(requested);
  });
});
