import type { FastifyReply } from 'fastify';

/** Names what translated a request's texts: `memory`, `catalog` and the engines, in order of first use. */
export const ENGINE_HEADER = 'X-Translation-Engine';

export function sendEngines(reply: FastifyReply, engines: readonly string[]): void {
  if (engines.length > 0) reply.header(ENGINE_HEADER, engines.join(','));
}
