import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { redactSecrets } from './redact';

/**
 * Exactly one JSON line per request (the request id comes from the child logger's bindings),
 * with no credentials or bodies.
 */
export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      url: redactSecrets(request.url),
      route: request.routeOptions?.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
      ...(error ? { err: error.message } : {}),
    };
    if (error || reply.statusCode >= 500) request.log.error(line, 'request');
    else request.log.info(line, 'request');
  }
}
