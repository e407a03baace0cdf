import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorEnvelope } from './error-envelope';
import { normalizeError } from './normalize-error';

/**
 * Catches everything: validation, unknown routes, body-parser and framework errors and
 * uncaught exceptions, and answers in the app's documented envelope. Stacks go to the log only.
 */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(private readonly envelope: ErrorEnvelope) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    this.reply(exception, ctx.getRequest<FastifyRequest>(), ctx.getResponse<FastifyReply>());
  }

  reply(exception: unknown, request: FastifyRequest | undefined, reply: FastifyReply): void {
    const error = normalizeError(exception);
    if (error.unexpected) {
      this.logger.error({ reqId: request?.id, err: exception instanceof Error ? { message: exception.message, stack: exception.stack } : String(exception) }, 'unhandled error');
    }
    if (reply.sent) return;
    reply.status(error.status).headers(error.headers).type('application/json; charset=utf-8').send(this.envelope.render(error));
  }
}
