import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { ApiError } from '@platform/errors';
import { MetricsRegistry, quotaRefusals } from '@platform/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Counter } from 'prom-client';
import { Observable } from 'rxjs';
import { isAccountCeiling, KeyRateLimitService } from './key-rate-limit.service';

/**
 * Refuses requests over their key's rate limit or their account's rate ceiling with 429 rate_limited before the handler runs.
 * It is an interceptor rather than a guard because Nest runs interceptors after all guards, so
 * the auth guard has set `request.apiKey` by then. Requests without a key (operational
 * endpoints, auth failures) are not limited.
 */
@Injectable()
export class RateLimitInterceptor implements NestInterceptor {
  private readonly refusals: Counter<string>;

  constructor(
    private readonly limits: KeyRateLimitService,
    metrics: MetricsRegistry,
  ) {
    this.refusals = quotaRefusals(metrics, ['key_requests_per_minute', 'account_requests_per_minute']);
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    if (context.getType() !== 'http' || !request.apiKey) return next.handle();
    // The fields are set on the reply before the handler runs, so its error responses carry them too.
    const decision = await this.limits.count(request.apiKey, request, http.getResponse<FastifyReply>());
    if (decision && !decision.allowed) {
      this.refusals.inc({ limit: isAccountCeiling(decision) ? 'account_requests_per_minute' : 'key_requests_per_minute' });
      const which = isAccountCeiling(decision)
        ? `The account's rate ceiling of ${decision.limit} requests per minute (all its ${request.apiKey.sandbox ? 'sandbox' : 'live'} keys together) is reached`
        : `Rate limit of ${decision.limit} requests per minute reached`;
      throw ApiError.rateLimited(`${which}; retry in ${decision.retryAfterSeconds} s`, decision.retryAfterSeconds);
    }
    return next.handle();
  }
}
