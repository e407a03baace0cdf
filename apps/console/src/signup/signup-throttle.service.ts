import { Inject, Injectable } from '@nestjs/common';
import { REDIS } from '@platform/service-kit';
import type { Redis } from 'ioredis';
import { ConsoleConfig } from '../config/console.config';
import { admitOrRefuse, DAY_MS, HOUR_MS } from '../rate-limits/refusing-windows';

/**
 * Sign-ups are admitted per client address (CONSOLE_SIGNUPS_PER_IP_PER_DAY in a window of 24
 * hours from the first) and over all addresses (CONSOLE_SIGNUPS_PER_HOUR), in Redis shared by
 * every replica, in one step and before any password is hashed or row written: attempts sent
 * together are held to the limits as attempts sent one after another. Every admitted attempt
 * counts, also one refused afterwards (a taken name), so that no attempt is free. While Redis is
 * unreachable sign-up answers 503.
 */
@Injectable()
export class SignUpThrottleService {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: ConsoleConfig,
  ) {}

  admit(ip: string): Promise<void> {
    const perIp = this.config.CONSOLE_SIGNUPS_PER_IP_PER_DAY;
    const perHour = this.config.CONSOLE_SIGNUPS_PER_HOUR;
    return admitOrRefuse(this.redis, [
      {
        key: `console-signup:ip:${ip}`,
        limit: perIp,
        windowMs: DAY_MS,
        refusal: (wait) => `This address has opened ${perIp} account${perIp === 1 ? '' : 's'} within a day, the most it may; try again in ${wait}`,
      },
      {
        key: 'console-signup:all',
        limit: perHour,
        windowMs: HOUR_MS,
        refusal: (wait) => `Too many accounts were opened in the last hour; sign-up is paused for everyone, try again in ${wait}`,
      },
    ]);
  }
}
