import { Inject, Injectable } from '@nestjs/common';
import { TranslationErrorCode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { REDIS } from '@platform/service-kit';
import type { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import { ConsoleConfig } from '../config/console.config';

/** Counts one failure; the first one of a window starts it. */
const COUNT_FAILURE = `local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return n`;

/**
 * Wrong passwords are counted per email address and per client address in Redis, shared by all
 * replicas. Once either count reaches its limit, sign-in there is locked until its window
 * (CONSOLE_SIGNIN_LOCK_SECONDS from the first failure) ends, with 429 and a message saying so,
 * even for the right password. Unknown addresses are counted like known ones, so a lock tells
 * nothing about which exist. While Redis is unreachable sign-in answers 503 rather than letting
 * guesses through uncounted.
 */
@Injectable()
export class SignInThrottleService {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: ConsoleConfig,
  ) {}

  private keys(email: string, ip: string) {
    return {
      email: `console-signin:email:${createHash('sha256').update(email).digest('hex')}`,
      ip: `console-signin:ip:${ip}`,
    };
  }

  async assertNotLocked(email: string, ip: string): Promise<void> {
    const keys = this.keys(email, ip);
    const [byEmail, byIp] = (await this.redis.mget(keys.email, keys.ip)).map(Number);
    const locked =
      byEmail >= this.config.CONSOLE_SIGNIN_MAX_FAILURES
        ? { key: keys.email, what: `this account after ${this.config.CONSOLE_SIGNIN_MAX_FAILURES} wrong passwords` }
        : byIp >= this.config.CONSOLE_SIGNIN_MAX_FAILURES_PER_IP
          ? { key: keys.ip, what: `this address after ${this.config.CONSOLE_SIGNIN_MAX_FAILURES_PER_IP} wrong passwords` }
          : undefined;
    if (!locked) return;
    const seconds = Math.max(1, Math.ceil((await this.redis.pttl(locked.key)) / 1000));
    const minutes = Math.ceil(seconds / 60);
    throw new ApiError(
      429,
      TranslationErrorCode.RateLimited,
      `Sign-in is locked for ${locked.what}; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
      {},
      { 'retry-after': String(seconds) },
    );
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    const keys = this.keys(email, ip);
    const windowMs = this.config.CONSOLE_SIGNIN_LOCK_SECONDS * 1000;
    await Promise.all([this.redis.eval(COUNT_FAILURE, 1, keys.email, windowMs), this.redis.eval(COUNT_FAILURE, 1, keys.ip, windowMs)]);
  }

  async recordSuccess(email: string, ip: string): Promise<void> {
    await this.redis.del(this.keys(email, ip).email);
  }
}
