import { ApiError } from '@platform/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import { admitToWindows, refundWindows } from '../redis/counting-windows';

const WINDOW_MS = 60_000;
/**
 * How long an address found below the limit is not asked about again by this replica. It saves a
 * Redis round trip on nearly every request; a failure answered here forgets the address at once,
 * so only failures counted by other replicas can go unseen, for at most this long.
 */
const CLEAN_FOR_MS = 1_000;
/** Addresses remembered as clean at most; beyond it the memory starts over. */
const CLEAN_ADDRESSES = 10_000;
/**
 * How long a credential this replica saw authenticate is looked up without the count, renewed
 * with every use. Such a request costs no Redis round trip; only someone who holds a valid
 * credential gets one in, and a failed lookup (a key revoked meanwhile) forgets it at once.
 */
const KNOWN_FOR_MS = 60_000;
/** Credentials remembered as valid at most; beyond it the memory starts over. */
const KNOWN_CREDENTIALS = 10_000;
/** Counts one failure that was not admitted beforehand; the first one of a window starts its minute. */
const COUNT_FAILURE = `local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return n`;

/** A throttle's side of one request: how to check a credential against the count, and whether one was. */
interface Attempt {
  check<T>(request: FastifyRequest, credential: string, lookup: () => Promise<T | null>): Promise<T | null>;
  /** A credential went through `check`, which has counted its failure already. */
  checked: boolean;
}

const attempts = new WeakMap<FastifyRequest, Attempt>();

/**
 * For guards: looks a presented credential up (`lookup` answers null for one that does not
 * authenticate) through the client address's count of failed authentications. A credential not
 * known to be valid takes a failure from the count before its lookup (429 when none is left) and
 * gives it back when it authenticates, so that guesses sent together are held to the limit
 * exactly as guesses sent one after another. Requests presenting one credential at the same time
 * take one failure between them. In an app without the throttle it is just `lookup()`.
 */
export function checkCredential<T>(request: FastifyRequest, credential: string, lookup: () => Promise<T | null>): Promise<T | null> {
  const attempt = attempts.get(request);
  if (!attempt) return lookup();
  attempt.checked = true;
  return attempt.check(request, credential, lookup);
}

const tooMany = (waitMs: number) =>
  ApiError.rateLimited(`Too many failed authentications from this address; retry in ${Math.ceil(waitMs / 1000)} s`, waitMs / 1000);

const fingerprint = (credential: string) => createHash('sha256').update(credential).digest('base64');

/**
 * Per client address (as Fastify sees it: the peer, or the forwarded address behind a trusted
 * proxy), at most `perMinute` failed authentications in a window of a minute, shared through
 * Redis by all replicas. Beyond that every request from the address gets 429 `rate_limited` with
 * `Retry-After` until the window ends, so keys cannot be guessed at speed. Credentials that guards
 * look up through `checkCredential` are counted before their lookup; other answers asking for
 * authentication (401, or a `WWW-Authenticate` header: no credential at all) when answered. While
 * Redis is unreachable nothing is throttled: availability wins, keys are far too long to guess.
 */
export function throttleAuthFailures(
  fastify: FastifyInstance,
  redis: Redis,
  options: { service: string; perMinute: number; exempt: (request: FastifyRequest) => boolean },
): void {
  const { perMinute, exempt } = options;
  // Per service: failures against one API do not lock a client out of another.
  const keyOf = (request: FastifyRequest) => `auth-failures:${options.service}:${request.ip}`;
  const countFailure = (request: FastifyRequest) => redis.eval(COUNT_FAILURE, 1, keyOf(request), WINDOW_MS).catch(() => undefined);
  const cleanUntil = new Map<string, number>();
  const knownUntil = new Map<string, number>();
  /** The outcome of a lookup running now, for requests presenting the same credential meanwhile. */
  const inFlight = new Map<string, Promise<boolean>>();

  const remember = (credential: string) => {
    if (knownUntil.size >= KNOWN_CREDENTIALS && !knownUntil.has(credential)) knownUntil.clear();
    knownUntil.set(credential, Date.now() + KNOWN_FOR_MS);
  };
  const isKnown = (credential: string) => (knownUntil.get(credential) ?? 0) > Date.now();

  async function check<T>(request: FastifyRequest, plain: string, lookup: () => Promise<T | null>): Promise<T | null> {
    const credential = fingerprint(plain);
    // Awaited only when there is one: the first request must reach `inFlight.set` without yielding.
    const pending = isKnown(credential) ? undefined : inFlight.get(credential);
    if (pending) await pending;
    if (isKnown(credential)) {
      const found = await lookup();
      if (found !== null) remember(credential);
      else {
        knownUntil.delete(credential);
        await countFailure(request);
      }
      return found;
    }
    // Set before anything is awaited, so that requests arriving meanwhile with the same credential wait for this one.
    const first = !inFlight.has(credential);
    let settle: (valid: boolean) => void = () => undefined;
    if (first) inFlight.set(credential, new Promise((resolve) => (settle = resolve)));
    const done = (valid: boolean) => {
      if (valid) remember(credential);
      if (first) inFlight.delete(credential);
      settle(valid);
    };
    const key = keyOf(request);
    // Redis unreachable: the lookup goes ahead uncounted.
    const admission = await admitToWindows(redis, [{ key, limit: perMinute, windowMs: WINDOW_MS }]).catch(() => null);
    if (admission && !admission.admitted) {
      done(false);
      throw tooMany(admission.retryAfterMs);
    }
    const refund = () => (admission ? refundWindows(redis, [key]).catch(() => undefined) : undefined);
    try {
      const found = await lookup();
      done(found !== null);
      // Only a failed lookup keeps the failure it took.
      if (found !== null) await refund();
      return found;
    } catch (error) {
      // An error (a database outage) is no failed authentication.
      done(false);
      await refund();
      throw error;
    }
  }

  fastify.addHook('onRequest', async (request) => {
    if (exempt(request)) return;
    attempts.set(request, { check, checked: false });
    if ((cleanUntil.get(request.ip) ?? 0) > Date.now()) return;
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
    if (waitMs !== undefined && waitMs > 0) throw tooMany(waitMs);
  });
  fastify.addHook('onResponse', async (request, reply) => {
    // An API that answers a bad key with another status (DeepL's 403) still asks for authentication.
    if (reply.statusCode !== 401 && !reply.hasHeader('www-authenticate')) return;
    cleanUntil.delete(request.ip);
    if (!attempts.get(request)?.checked) await countFailure(request);
  });
}
