import { Inject, Injectable, Logger } from '@nestjs/common';
import { REDIS } from '@platform/service-kit';
import { Redis } from 'ioredis';
import { createHash, randomUUID } from 'node:crypto';
import { SLIDING_WINDOW_SCRIPT } from './sliding-window.script';

export const RATE_LIMIT_WINDOW_SECONDS = 60;

/** One window a request counts against; `id` names its log in Redis. */
export interface RateWindow {
  id: string;
  limit: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /**
   * The window the figures below describe: when refused, the full window that frees up last;
   * when allowed, the one with the fewest requests left (the first on a tie).
   */
  window: RateWindow;
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
 * Request rates over sliding windows of the last 60 seconds, shared by all replicas through
 * Redis. A request may count against several windows at once (a key's and its account's):
 * it is allowed only when all have room. Allowed requests are recorded in every window; refused
 * ones in none, so a client that keeps retrying too early does not extend its own wait.
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

  hit(id: string, limit: number): Promise<RateLimitDecision | null> {
    return this.hitAll([{ id, limit }]);
  }

  async hitAll(windows: RateWindow[]): Promise<RateLimitDecision | null> {
    if (windows.length === 0) throw new RangeError('a request counts against at least one window');
    for (const { limit } of windows) {
      if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`rate limit must be a positive integer, got ${limit}`);
    }
    let reply: number[];
    try {
      reply = await this.run(
        windows.map((w) => `ratelimit:${w.id}`),
        [WINDOW_MICROS, randomUUID(), ...windows.map((w) => w.limit)],
      );
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
    const allowed = reply[0] === 1;
    const decisions = windows.map((window, i) => {
      const [count, waitMicros] = [reply[1 + 2 * i], reply[2 + 2 * i]];
      const resetSeconds = Math.max(1, Math.ceil(waitMicros / 1_000_000));
      return { allowed, window, limit: window.limit, remaining: Math.max(0, window.limit - count), resetSeconds, retryAfterSeconds: allowed ? 0 : resetSeconds };
    });
    if (allowed) return decisions.reduce((tightest, d) => (d.remaining < tightest.remaining ? d : tightest));
    // A refused request was not recorded: a full window is one with no room left.
    return decisions.filter((d) => d.remaining === 0).reduce((latest, d) => (d.retryAfterSeconds > latest.retryAfterSeconds ? d : latest));
  }

  private async run(keys: string[], args: (string | number)[]): Promise<number[]> {
    try {
      return (await this.redis.evalsha(SCRIPT_SHA, keys.length, ...keys, ...args)) as number[];
    } catch (error) {
      // First use on this Redis (or after a restart/flush): send the script itself once.
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return (await this.redis.eval(SLIDING_WINDOW_SCRIPT, keys.length, ...keys, ...args)) as number[];
    }
  }
}
