/**
 * Whether the standard OTEL_* variables ask this process for traces. The SDK on its own would
 * export to an OTLP collector on localhost whenever it runs; here it runs only when asked, so a
 * deployment without a collector neither loads it nor logs failed exports:
 *
 * - `OTEL_SDK_DISABLED=true` turns tracing off, whatever else is set;
 * - `OTEL_TRACES_EXPORTER` names the exporters (`otlp`, `console`, `zipkin`); `none` turns it off;
 * - without it, an OTLP endpoint (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or
 *   `OTEL_EXPORTER_OTLP_ENDPOINT`) turns on the OTLP exporter.
 *
 * Kept free of imports: the launcher of every app evaluates it before anything else is loaded.
 */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  // As the SDK reads the list: `none` first means no exporter.
  if (exporters.length > 0) return exporters[0] !== 'none';
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
}
