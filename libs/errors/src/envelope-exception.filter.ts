import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorEnvelope } from './error-envelope';
import { normalizeError } from './normalize-error';

/** Seconds a client is told to wait after a 503 that names no wait of its own. */
export const DEFAULT_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * Catches everything: validation, unknown routes, body-parser and framework errors and
 * uncaught exceptions, and answers in the app's documented envelope. Stacks go to the log only.
 * Every 503 carries `Retry-After`, so clients back off instead of hammering a recovering service.
 */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(
    private readonly envelope: ErrorEnvelope,
    private readonly retryAfterSeconds = DEFAULT_UNAVAILABLE_RETRY_AFTER_SECONDS,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    this.reply(exception, ctx.getRequest<FastifyRequest>(), ctx.getResponse<FastifyReply>());
  }

  reply(exception: unknown, request: FastifyRequest | undefined, reply: FastifyReply): void {
    const error = normalizeError(exception);
    if (error.unexpected) {
      this.logger.error({ reqId: request?.id, err: exception instanceof Error ? { message: exception.message, stack: exception.stack } : String(exception) }, 'unhandled error');
    } else if (error.dependency) {
      // An outage is not a bug: one line per refused request, without a stack.
      this.logger.warn({ reqId: request?.id, dependency: error.dependency, err: exception instanceof Error ? exception.message : String(exception) }, 'dependency unavailable');
    }
    if (reply.sent) return;
    const headers = { ...error.headers };
    if (error.status === 503 && !Object.keys(headers).some((name) => name.toLowerCase() === 'retry-after')) headers['retry-after'] = String(this.retryAfterSeconds);
    const status = this.envelope.status?.(error, request) ?? error.status;
    reply.status(status).headers(headers).type('application/json; charset=utf-8').send(this.envelope.render(error, request));
  }
}
