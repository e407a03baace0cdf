import { TranslationErrorCode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';

const WINDOW_MS = 60_000;
/**
 * How long an address found below the limit is not asked about again by this replica. It saves a
 * Redis round trip on nearly every request; a failure answered here forgets the address at once,
 * so only failures counted by other replicas can go unseen, for at most this long.
 */
const CLEAN_FOR_MS = 1_000;
/** Addresses remembered as clean at most; beyond it the memory starts over. */
const CLEAN_ADDRESSES = 10_000;
/** Counts one failure; the first one of a window starts its minute. */
const COUNT_FAILURE = `local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return n`;

/**
 * Per client address (as Fastify sees it: the peer, or the forwarded address behind a trusted
 * proxy), at most `perMinute` answers 401 in a window of a minute, shared through Redis by all
 * replicas. Beyond that every request from the address gets 429 `rate_limited` with
 * `Retry-After` until the window ends, so keys cannot be guessed at speed. While Redis is
 * unreachable nothing is throttled: availability wins, keys are far too long to guess anyway.
 */
export function throttleAuthFailures(
  fastify: FastifyInstance,
  redis: Redis,
  options: { service: string; perMinute: number; exempt: (request: FastifyRequest) => boolean },
): void {
  const { perMinute, exempt } = options;
  // Per service: failures against one API do not lock a client out of another.
  const keyOf = (request: FastifyRequest) => `auth-failures:${options.service}:${request.ip}`;
  const cleanUntil = new Map<string, number>();
  fastify.addHook('onRequest', async (request) => {
    if (exempt(request) || (cleanUntil.get(request.ip) ?? 0) > Date.now()) return;
    let waitMs: number | undefined;
    try {
      const key = keyOf(request);
      if (Number(await redis.get(key)) >= perMinute) waitMs = await redis.pttl(key);
      else {
        if (cleanUntil.size >= CLEAN_ADDRESSES) cleanUntil.clear();
        cleanUntil.set(request.ip, Date.now() + CLEAN_FOR_MS);
      }
    } catch {
      return;
    }
    if (waitMs !== undefined && waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new ApiError(429, TranslationErrorCode.RateLimited, `Too many failed authentications from this address; retry in ${seconds} s`, {}, { 'retry-after': String(seconds) });
    }
  });
  fastify.addHook('onResponse', async (request, reply) => {
    // An API that answers a bad key with another status (DeepL's 403) still asks for authentication.
    if (reply.statusCode !== 401 && !reply.hasHeader('www-authenticate')) return;
    cleanUntil.delete(request.ip);
    await redis.eval(COUNT_FAILURE, 1, keyOf(request), WINDOW_MS).catch(() => undefined);
  });
}
