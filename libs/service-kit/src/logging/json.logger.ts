import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';
import { traceLogFields } from '../tracing/trace-log-fields';
import { redactRecord, redactSecrets } from './redact';

export function createRootLogger(service: string, level: string): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }), log: (record) => redactRecord(record) },
    // A line written while a span is active names its trace (nothing when tracing is off).
    mixin: traceLogFields,
    hooks: {
      // Messages can quote user input (e.g. a URL with a token): mask secrets in every line.
      logMethod(args, method) {
        method.apply(this, args.map((a) => (typeof a === 'string' ? redactSecrets(a) : a)) as Parameters<typeof method>);
      },
    },
  });
}

/** Routes Nest's own log calls into the same JSON stream as request logs. */
export class JsonLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string) {
    this.write('info', message, context);
  }
  error(message: unknown, traceOrContext?: string, context?: string) {
    this.write('error', message, context ?? traceOrContext);
  }
  warn(message: unknown, context?: string) {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string) {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string) {
    this.write('trace', message, context);
  }
  fatal(message: unknown, context?: string) {
    this.write('fatal', message, context);
  }

  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal', message: unknown, context?: string) {
    if (typeof message === 'object' && message !== null) {
      this.logger[level]({ context, ...(message as object) });
    } else {
      this.logger[level]({ context }, String(message));
    }
  }
}
