import { ProxyTracerProvider, trace } from '@opentelemetry/api';

interface FlushingProvider {
  forceFlush(): Promise<void>;
}

/**
 * Exports the spans still buffered, before the process exits. The SDK's provider stands behind
 * the API's proxy; without the SDK there is none and nothing to do. A collector that cannot be
 * reached costs the spans, never the exit code.
 */
export async function flushTraces(): Promise<void> {
  const global = trace.getTracerProvider();
  const provider: object = global instanceof ProxyTracerProvider ? global.getDelegate() : global;
  if (!('forceFlush' in provider) || typeof provider.forceFlush !== 'function') return;
  try {
    await (provider as FlushingProvider).forceFlush();
  } catch (error) {
    process.stderr.write(`traces not exported at exit: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}
