import { diag, DiagLogLevel, type DiagLogger } from '@opentelemetry/api';
import { createRootLogger } from '../logging/json.logger';

/**
 * The SDK's own messages (an export the collector refused or never answered) as JSON log lines
 * of the service, warnings and errors by default: the SDK would otherwise say nothing, or, with
 * OTEL_LOG_LEVEL, print plain text among the JSON lines. OTEL_LOG_LEVEL (NONE, ERROR, WARN, INFO,
 * DEBUG, VERBOSE, ALL) still sets how much.
 */
export function logSdkDiagnostics(service: string, level = process.env.OTEL_LOG_LEVEL): void {
  const logger = createRootLogger(service, 'trace').child({ context: 'opentelemetry' });
  const write =
    (method: 'error' | 'warn' | 'info' | 'debug' | 'trace') =>
    (message: string, ...args: unknown[]) =>
      logger[method](args.length > 0 ? { detail: args.map((arg) => (arg instanceof Error ? arg.message : String(arg))) } : {}, message);
  const sink: DiagLogger = { error: write('error'), warn: write('warn'), info: write('info'), debug: write('debug'), verbose: write('trace') };
  const named: unknown = DiagLogLevel[level?.trim().toUpperCase() as keyof typeof DiagLogLevel];
  diag.setLogger(sink, { logLevel: typeof named === 'number' ? named : DiagLogLevel.WARN, suppressOverrideMessage: true });
}
