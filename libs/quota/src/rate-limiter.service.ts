import { Inject, Injectable, Logger } from '@nestjs/common';
import { REDIS } from '@platform/service-kit';
import { Redis } from 'ioredis';
import { createHash, randomUUID } from 'node:crypto';
import { SLIDING_WINDOW_SCRIPT } from './sliding-window.script';

export const RATE_LIMIT_WINDOW_SECONDS = 60;

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests still allowed in the current window. */
  remaining: number;
  /** Seconds until the window has room for one more request (the oldest counted one leaves it). */
  resetSeconds: number;
  /** Whole seconds to wait before retrying; 0 when allowed, at least 1 otherwise. */
  retryAfterSeconds: number;
}

const SCRIPT_SHA = createHash('sha1').update(SLIDING_WINDOW_SCRIPT).digest('hex');
const WINDOW_MICROS = RATE_LIMIT_WINDOW_SECONDS * 1_000_000;

/**
 * Per-key request rate over a sliding window of the last 60 seconds, shared by all replicas
 * through Redis. Allowed requests are recorded; refused ones are not, so a client that keeps
 * retrying too early does not extend its own wait.
 *
 * When Redis is unreachable the limiter fails open: `hit` returns null and the request goes
 * through. Availability wins over strictness here because the monthly word quota, which is what
 * costs money, is enforced in Postgres regardless. One warning is logged per outage.
 */
@Injectable()
export class RateLimiter {
  private readonly logger = new Logger(RateLimiter.name);
  private outage = false;

  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async hit(keyId: string, limit: number): Promise<RateLimitDecision | null> {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`rate limit must be a positive integer, got ${limit}`);
    let reply: [number, number, number];
    try {
      reply = await this.run(`ratelimit:${keyId}`, [limit, WINDOW_MICROS, randomUUID()]);
    } catch (error) {
      if (!this.outage) {
        this.outage = true;
        this.logger.warn(`Rate limiting suspended, requests are let through while Redis is unreachable: ${(error as Error).message}`);
      }
      return null;
    }
    if (this.outage) {
      this.outage = false;
      this.logger.log('Rate limiting resumed: Redis is reachable again');
    }
    const [allowed, count, waitMicros] = reply;
    const resetSeconds = Math.max(1, Math.ceil(waitMicros / 1_000_000));
    return {
      allowed: allowed === 1,
      limit,
      remaining: Math.max(0, limit - count),
      resetSeconds,
      retryAfterSeconds: allowed === 1 ? 0 : resetSeconds,
    };
  }

  private async run(key: string, args: (string | number)[]): Promise<[number, number, number]> {
    try {
      return (await this.redis.evalsha(SCRIPT_SHA, 1, key, ...args)) as [number, number, number];
    } catch (error) {
      // First use on this Redis (or after a restart/flush): send the script itself once.
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return (await this.redis.eval(SLIDING_WINDOW_SCRIPT, 1, key, ...args)) as [number, number, number];
    }
  }
}
