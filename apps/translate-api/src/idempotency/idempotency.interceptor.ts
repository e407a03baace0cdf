import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { ApiError, normalizeError } from '@platform/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, Observable, of } from 'rxjs';
import { IdempotencyStore, type IdempotencyLease, type StoredOutcome } from './idempotency.store';
import { requestFingerprint } from './request-fingerprint';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';

const VALID_KEY = /^[\x20-\x7e]{1,255}$/;

/** Server failures and rate limiting say nothing about the request itself: a retry must run it. */
const isStored = (status: number) => status < 500 && status !== 429;

function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !VALID_KEY.test(value)) {
    throw ApiError.invalidParameter('Idempotency-Key must be 1 to 255 printable ASCII characters, sent once');
  }
  return value;
}

/**
 * Applies Idempotency-Key to a route (see `@Idempotent()`). Runs after the auth guard and the
 * rate limiter, before validation, so that the outcome stored is the one the client saw:
 * a success or a client error. A replay answers with the stored status and body and the header
 * `Idempotent-Replayed: true`, and runs nothing.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly store: IdempotencyStore) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const idempotencyKey = idempotencyKeyOf(request);
    if (idempotencyKey === undefined || !request.apiKey) return next.handle();

    const started = await this.store.start({ apiKeyId: request.apiKey.keyId, idempotencyKey }, requestFingerprint(request));
    if ('replay' in started) return of(replay(started.replay, reply));
    return from(this.run(next, started.lease, reply));
  }

  private async run(next: CallHandler, lease: IdempotencyLease, reply: FastifyReply): Promise<unknown> {
    let body: unknown;
    try {
      body = await lastValueFrom(next.handle(), { defaultValue: undefined });
    } catch (error) {
      const { status, code, message, extra, headers } = normalizeError(error);
      await (isStored(status) ? lease.complete({ status, error: { code, message, extra, headers } }) : lease.release());
      throw error;
    }
    // The route's status (its @HttpCode or the method's default) is on the reply before the handler runs.
    await lease.complete({ status: reply.statusCode, body });
    return body;
  }
}

function replay(outcome: StoredOutcome, reply: FastifyReply): unknown {
  if ('error' in outcome) {
    const { code, message, extra, headers } = outcome.error;
    throw new ApiError(outcome.status, code, message, extra, { ...headers, [REPLAYED_HEADER]: 'true' });
  }
  reply.status(outcome.status).header(REPLAYED_HEADER, 'true');
  return outcome.body;
}
