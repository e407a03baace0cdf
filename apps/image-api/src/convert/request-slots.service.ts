import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiError } from '@platform/errors';
import { REDIS } from '@platform/service-kit';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { ImageApiConfig } from '../config/image-api.config';

/** Gives a slot back; calling it more than once is harmless. */
export type ReleaseSlot = () => void;

/** Seconds a refused client is asked to wait at most: about one conversion of a large photo. */
export const BUSY_RETRY_AFTER_SECONDS = 2;

/**
 * A token's slot is a lease that the replica holding it renews for as long as the request runs,
 * several times before it would run out, so one held by a replica that died is free again
 * within seconds.
 */
const TOKEN_SLOT_TTL_MS = 5_000;
const TOKEN_SLOT_RENEW_MS = 1_500;

/**
 * Drops expired slots, then takes one when fewer than the limit are held: one atomic step on
 * any replica. Refused, it answers when the earliest held lease runs out.
 */
const TAKE_TOKEN_SLOT = `
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
  if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return {0, redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]} end
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
  return {1}`;

const busy = (message: string, retryAfterSeconds = BUSY_RETRY_AFTER_SECONDS) =>
  new ApiError(429, 'too_many_requests', message, {}, { 'retry-after': String(retryAfterSeconds) });

/**
 * Caps conversion requests in progress (receiving files, then converting them): per process, so
 * temp files and memory stay bounded, and per token across replicas through Redis, so one
 * customer cannot occupy every replica. Beyond either cap the request is refused with 429 and
 * `Retry-After` before any file is read. While Redis is unreachable the token cap is kept per
 * process, so conversions go on.
 */
@Injectable()
export class RequestSlots {
  private readonly logger = new Logger(RequestSlots.name);
  private inProcess = 0;
  private readonly localByToken = new Map<string, number>();

  constructor(
    private readonly config: ImageApiConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  /** A slot of this process; 429 when all are taken. */
  takeProcessSlot(): ReleaseSlot {
    if (this.inProcess >= this.config.CONCURRENT_REQUESTS_PER_PROCESS) {
      throw busy('The service is busy with other conversions; try again shortly');
    }
    this.inProcess += 1;
    return once(() => (this.inProcess -= 1));
  }

  /** A slot of this token; 429 when the token already has its limit of requests in progress. */
  async takeTokenSlot(subscriptionId: string): Promise<ReleaseSlot> {
    const limit = this.config.CONCURRENT_REQUESTS_PER_TOKEN;
    const refused = (retryAfterSeconds?: number) =>
      busy(`At most ${limit} conversion requests of one access token may run at once; try again when one has finished`, retryAfterSeconds);
    const key = `image:requests-in-progress:${subscriptionId}`;
    const member = randomUUID();
    let taken: [number, string?];
    try {
      taken = (await this.redis.eval(TAKE_TOKEN_SLOT, 1, key, Date.now(), Date.now() + TOKEN_SLOT_TTL_MS, member, limit, TOKEN_SLOT_TTL_MS)) as [number, string?];
    } catch (error) {
      this.logger.warn({ msg: 'token concurrency kept per process: Redis is unavailable', err: error instanceof Error ? error.message : String(error) });
      return this.takeLocalTokenSlot(subscriptionId, limit, refused);
    }
    // A slot frees when its request ends, or at the latest when its lease runs out unrenewed.
    if (taken[0] !== 1) throw refused(Math.min(BUSY_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil((Number(taken[1]) - Date.now()) / 1000))));
    const renew = setInterval(() => {
      this.redis.zadd(key, 'XX', Date.now() + TOKEN_SLOT_TTL_MS, member).catch(() => undefined);
    }, TOKEN_SLOT_RENEW_MS).unref();
    return once(() => {
      clearInterval(renew);
      this.redis.zrem(key, member).catch(() => undefined);
    });
  }

  private takeLocalTokenSlot(subscriptionId: string, limit: number, refused: () => ApiError): ReleaseSlot {
    const held = this.localByToken.get(subscriptionId) ?? 0;
    if (held >= limit) throw refused();
    this.localByToken.set(subscriptionId, held + 1);
    return once(() => {
      const left = (this.localByToken.get(subscriptionId) ?? 1) - 1;
      if (left > 0) this.localByToken.set(subscriptionId, left);
      else this.localByToken.delete(subscriptionId);
    });
  }
}

function once(release: () => void): ReleaseSlot {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    release();
  };
}
