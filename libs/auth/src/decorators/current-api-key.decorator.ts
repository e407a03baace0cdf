import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** The authenticated key (`ApiKeyPrincipal`) of the request, as set by the auth guard. */
export const CurrentApiKey = createParamDecorator((_: unknown, context: ExecutionContext) => {
  return context.switchToHttp().getRequest<FastifyRequest>().apiKey;
});
