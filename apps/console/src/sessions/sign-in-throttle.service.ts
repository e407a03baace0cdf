import { Inject, Injectable } from '@nestjs/common';
import { REDIS, refundWindows } from '@platform/service-kit';
import type { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import { ConsoleConfig } from '../config/console.config';
import { admitOrRefuse, waitInWords } from '../rate-limits/refusing-windows';

/** A sign-in attempt admitted through the counts; `succeeded` gives back what it took. */
export interface AdmittedSignIn {
  succeeded(): Promise<void>;
  /**
   * Gives back this attempt's unit but keeps the account's count: for a right password that
   * still needs its second factor, so that wrong codes add up over any number of right passwords.
   */
  refund(): Promise<void>;
  /** What a wrong password (or `wrong` thing) is answered with: a warning once the lock is near. */
  refusal(wrong?: string): Promise<string>;
}

/** How a failure is named in the answer to it and in the warnings and locks it leads to. */
export interface SignInFailure {
  wrong: string;
  one: string;
  many: string;
}

export const WRONG_PASSWORD: SignInFailure = { wrong: 'Wrong email address or password', one: 'wrong password', many: 'wrong passwords' };
/** Codes count with passwords: whoever knows the password cannot try codes beyond the same limit. */
export const WRONG_CODE: SignInFailure = { wrong: 'Wrong code, or one already used', one: 'wrong password or code', many: 'wrong passwords or codes' };
/** Wrong passwords before the lock from which the answer warns of it: from the 15th of 20. */
const WARN_WITHIN = 5;

/** The answer to the failure that brought the address's count to `count` of `limit`, its window ending in `wait`. */
export function wrongPasswordMessage(count: number, limit: number, wait: string, { wrong, one, many }: SignInFailure = WRONG_PASSWORD): string {
  const left = limit - count;
  if (left > WARN_WITHIN) return wrong;
  if (left <= 0) return `${wrong}. That was the last ${one} allowed: sign-in to this account is locked for ${wait}`;
  return `${wrong}. After ${left} more ${left === 1 ? one : many}, sign-in to this account is locked for up to ${wait}`;
}

/**
 * Wrong passwords are counted per email address and per client address in Redis, shared by all
 * replicas. Every attempt takes a failure from both counts before its password is hashed, and
 * gives them back only when the password was right: attempts sent together are admitted no
 * further than attempts sent one after another. Once either count reaches its limit, sign-in
 * there is locked until its window (CONSOLE_SIGNIN_LOCK_SECONDS from the first failure) ends,
 * with 429 and a message saying so, even for the right password. Unknown addresses are counted
 * like known ones, so a lock tells nothing about which exist. While Redis is unreachable sign-in
 * answers 503 rather than letting guesses through uncounted.
 */
@Injectable()
export class SignInThrottleService {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: ConsoleConfig,
  ) {}

  private emailKey(email: string): string {
    return `console-signin:email:${createHash('sha256').update(email).digest('hex')}`;
  }

  private keys(email: string, ip: string) {
    return { email: this.emailKey(email), ip: `console-signin:ip:${ip}` };
  }

  /** Clears the account's count of failures, and so its lock; the client addresses' counts stay. */
  async forgetAccount(email: string): Promise<void> {
    await this.redis.del(this.emailKey(email));
  }

  /** 429 when either count is at its limit; otherwise the attempt counts as a failure until it succeeds. */
  async admit(email: string, ip: string, failure: SignInFailure = WRONG_PASSWORD): Promise<AdmittedSignIn> {
    const keys = this.keys(email, ip);
    const windowMs = this.config.CONSOLE_SIGNIN_LOCK_SECONDS * 1000;
    const lock = (what: string, limit: number) => ({
      limit,
      windowMs,
      refusal: (wait: string) => `Sign-in is locked for ${what} after ${limit} ${failure.many}; try again in ${wait}`,
    });
    await admitOrRefuse(this.redis, [
      { key: keys.email, ...lock('this account', this.config.CONSOLE_SIGNIN_MAX_FAILURES) },
      { key: keys.ip, ...lock('this address', this.config.CONSOLE_SIGNIN_MAX_FAILURES_PER_IP) },
    ]);
    const limit = this.config.CONSOLE_SIGNIN_MAX_FAILURES;
    return {
      // A right password clears the account's count, and gives the address back its unit.
      succeeded: async () => {
        await this.redis.del(keys.email);
        await refundWindows(this.redis, [keys.ip]);
      },
      refund: () => refundWindows(this.redis, [keys.email, keys.ip]),
      // Counted like known ones, unknown addresses are warned alike: the warning tells nothing about which exist.
      refusal: async (wrong = failure.wrong) => {
        const [count, ttl] = await Promise.all([this.redis.get(keys.email), this.redis.pttl(keys.email)]);
        return wrongPasswordMessage(Number(count ?? 0), limit, waitInWords(ttl > 0 ? ttl : windowMs), { ...failure, wrong });
      },
    };
  }
}
