import { TranslationErrorCode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import type { FastifyInstance } from 'fastify';

/** How often idle keep-alive connections are looked for while draining. */
const IDLE_SWEEP_MS = 100;

/**
 * Graceful stop of the HTTP side: no new connections, idle keep-alive connections closed, every
 * response sent meanwhile says `Connection: close` (so pooled connections end once their request
 * is answered), and a request that still arrives on an open connection gets 503 with
 * `Retry-After`. Resolves when the last connection has closed.
 */
export function installHttpDrain(fastify: FastifyInstance, retryAfterSeconds: number): () => Promise<void> {
  let draining = false;
  fastify.addHook('onRequest', async () => {
    if (draining) {
      throw new ApiError(503, TranslationErrorCode.ServiceUnavailable, 'The service is shutting down; retry the request', {}, { 'retry-after': String(retryAfterSeconds) });
    }
  });
  fastify.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close');
  });
  return () => {
    if (draining) return Promise.resolve();
    draining = true;
    const server = fastify.server;
    return new Promise<void>((resolve) => {
      // A response that began before the drain may still leave its connection idle afterwards.
      const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
      server.close(() => {
        clearInterval(sweep);
        resolve();
      });
      server.closeIdleConnections();
    });
  };
}
