import { ApiError } from '@platform/errors';
import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies nested deeper than this are refused before validation: class-transformer walks a
 * body recursively and would overflow the stack (a 500) on a few thousand levels. No documented
 * request body comes close.
 */
export const MAX_BODY_DEPTH = 32;

/** True when `value` nests objects or arrays more than `max` levels deep; walks without recursion. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return false;
}

export function refuseDeepBodies(fastify: FastifyInstance): void {
  fastify.addHook('preValidation', async (request) => {
    if (nestedDeeperThan(request.body, MAX_BODY_DEPTH)) {
      throw ApiError.invalidParameter(`The request body is nested more than ${MAX_BODY_DEPTH} levels deep`);
    }
  });
}
