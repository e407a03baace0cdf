import { Inject, Injectable } from '@nestjs/common';
import type { ApiKeyPrincipal } from '@platform/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RATE_LIMIT_WINDOW_SECONDS, RateLimitDecision, RateLimiter, type RateWindow } from './rate-limiter.service';

export const RATE_LIMIT_OPTIONS = Symbol('RATE_LIMIT_OPTIONS');

export interface RateLimitOptions {
  /** Requests per minute for keys without a limit of their own. */
  defaultPerMinute: number;
}

/** The IETF rate-limit fields (draft-ietf-httpapi-ratelimit-headers) for one decision. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'ratelimit-policy': `"default";q=${decision.limit};w=${RATE_LIMIT_WINDOW_SECONDS}`,
    ratelimit: `"default";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
}

/** The window of all keys of an account in one mode: the operator's rate ceiling. */
export function accountRateWindowId({ accountId, sandbox }: Pick<ApiKeyPrincipal, 'accountId' | 'sandbox'>): string {
  return `account:${accountId}:${sandbox ? 'sandbox' : 'live'}`;
}

/** Whether a decision's figures are the account's ceiling rather than the key's own limit. */
export function isAccountCeiling(decision: RateLimitDecision): boolean {
  return decision.window.id.startsWith('account:');
}

/**
 * Counts one authenticated request against its key's limit and, when the operator set one, its
 * account's rate ceiling (all keys of the key's mode together), and puts the outcome on the reply.
 */
@Injectable()
export class KeyRateLimitService {
  private readonly counted = new WeakSet<FastifyRequest>();

  constructor(
    private readonly limiter: RateLimiter,
    @Inject(RATE_LIMIT_OPTIONS) private readonly options: RateLimitOptions,
  ) {}

  private windowsOf(key: ApiKeyPrincipal): RateWindow[] {
    const own = { id: key.keyId, limit: key.rateLimitPerMinute ?? this.options.defaultPerMinute };
    const ceiling = key.account.rateLimitPerMinute;
    return ceiling === null ? [own] : [own, { id: accountRateWindowId(key), limit: ceiling }];
  }

  /** Null when Redis is unreachable: the request is let through and carries no rate-limit fields. */
  async count(key: ApiKeyPrincipal, request: FastifyRequest, reply: FastifyReply): Promise<RateLimitDecision | null> {
    this.counted.add(request);
    const decision = await this.limiter.hitAll(this.windowsOf(key));
    if (decision) reply.headers(rateLimitHeaders(decision));
    return decision;
  }

  isCounted(request: FastifyRequest): boolean {
    return this.counted.has(request);
  }
}
