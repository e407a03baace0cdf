import { Inject, Injectable } from '@nestjs/common';
import { REDIS } from '@platform/service-kit';
import type { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import { ConsoleConfig } from '../config/console.config';
import { admitOrRefuse, HOUR_MS } from '../rate-limits/refusing-windows';

/**
 * Requests for a reset link are counted per email address (CONSOLE_PASSWORD_RESETS_PER_EMAIL_PER_HOUR)
 * and per client address (CONSOLE_PASSWORD_RESETS_PER_IP_PER_HOUR), each in a window of an hour
 * from its first, in Redis shared by every replica, before anything is looked up: nobody can bury
 * an inbox under reset mail, and addresses without a user are counted and refused alike, so a
 * refusal tells nothing about which exist. While Redis is unreachable the request answers 503.
 */
@Injectable()
export class PasswordResetThrottleService {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: ConsoleConfig,
  ) {}

  admit(email: string, ip: string): Promise<void> {
    const perEmail = this.config.CONSOLE_PASSWORD_RESETS_PER_EMAIL_PER_HOUR;
    const perIp = this.config.CONSOLE_PASSWORD_RESETS_PER_IP_PER_HOUR;
    return admitOrRefuse(this.redis, [
      {
        key: `console-password-reset:email:${createHash('sha256').update(email).digest('hex')}`,
        limit: perEmail,
        windowMs: HOUR_MS,
        refusal: (wait) => `A reset link for this email address was asked for ${perEmail} time${perEmail === 1 ? '' : 's'} within an hour, the most allowed; try again in ${wait}`,
      },
      {
        key: `console-password-reset:ip:${ip}`,
        limit: perIp,
        windowMs: HOUR_MS,
        refusal: (wait) => `Your network address asked for ${perIp} reset links within an hour, the most allowed; try again in ${wait}`,
      },
    ]);
  }
}
