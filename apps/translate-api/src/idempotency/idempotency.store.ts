import { Inject, Injectable, Logger } from '@nestjs/common';
import { TranslationErrorCode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { REDIS } from '@platform/service-kit';
import { Redis } from 'ioredis';
import { createHash, randomUUID } from 'node:crypto';

export const IDEMPOTENCY_OPTIONS = Symbol('IDEMPOTENCY_OPTIONS');

export interface IdempotencyOptions {
  /** How long a finished response is kept for replays. */
  ttlSeconds: number;
}

/** Whose request it is: a key is only ever compared with the same API key's earlier requests. */
export interface IdempotencyScope {
  apiKeyId: string;
  idempotencyKey: string;
}

/** A finished request as it is replayed: a body, or an error rendered again by the app's envelope. */
export type StoredOutcome =
  | { status: number; body: unknown }
  | { status: number; error: { code: string; message: string; extra: Record<string, unknown>; headers: Record<string, string> } };

type StoredRecord = { state: 'running'; fingerprint: string; lease: string } | { state: 'done'; fingerprint: string; outcome: StoredOutcome };

export type IdempotencyStart = { replay: StoredOutcome } | { lease: IdempotencyLease };

/**
 * A crashed replica must not block a key for a whole day: its marker lives only this long
 * unless the request that holds it keeps renewing it while it runs.
 */
const LEASE_MS = 30_000;
const RENEW_EVERY_MS = LEASE_MS / 3;

/** Each script acts only while the key still holds this request's own marker (ARGV[1]). */
const IF_HELD = (command: string) => `if redis.call('GET', KEYS[1]) == ARGV[1] then return ${command} end return 0`;
const COMPLETE = IF_HELD(`redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])`);
const RENEW = IF_HELD(`redis.call('PEXPIRE', KEYS[1], ARGV[2])`);
const RELEASE = IF_HELD(`redis.call('DEL', KEYS[1])`);

function unavailable(error: unknown): ApiError {
  const reason = error instanceof Error ? error.message : String(error);
  return ApiError.unavailable(
    `Idempotency-Key cannot be honoured: the idempotency store (Redis) is unreachable (${reason}). Retry later; nothing was processed`,
  );
}

/** The right to run one request under its key; ends with `complete` or `release`. */
export class IdempotencyLease {
  private readonly renewal: NodeJS.Timeout;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly marker: string,
    private readonly fingerprint: string,
    private readonly ttlSeconds: number,
    private readonly logger: Logger,
  ) {
    this.renewal = setInterval(() => void this.run(RENEW, String(LEASE_MS)), RENEW_EVERY_MS).unref();
  }

  /** Keeps the outcome for replays. */
  complete(outcome: StoredOutcome): Promise<void> {
    const record: StoredRecord = { state: 'done', fingerprint: this.fingerprint, outcome };
    return this.end(COMPLETE, JSON.stringify(record), String(this.ttlSeconds));
  }

  /** Forgets the request, so that a retry with the same key runs afresh. */
  release(): Promise<void> {
    return this.end(RELEASE);
  }

  private async end(script: string, ...args: string[]): Promise<void> {
    clearInterval(this.renewal);
    await this.run(script, ...args);
  }

  /**
   * The request has already done its work when this runs, so a Redis failure must not turn its
   * answer into an error: the marker then expires with its lease and a retry runs again.
   */
  private async run(script: string, ...args: string[]): Promise<void> {
    try {
      await this.redis.eval(script, 1, this.key, this.marker, ...args);
    } catch (error) {
      this.logger.warn(`Could not update an idempotency record in Redis: ${(error as Error).message}`);
    }
  }
}

/**
 * Idempotency-Key records in Redis, shared by every replica. A first request claims the key with
 * SET NX (an in-progress marker with the request's fingerprint); when it finishes, its outcome
 * replaces the marker for `ttlSeconds`.
 */
@Injectable()
export class IdempotencyStore {
  private readonly logger = new Logger(IdempotencyStore.name);

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(IDEMPOTENCY_OPTIONS) private readonly options: IdempotencyOptions,
  ) {}

  /**
   * Claims the key for a new request, or returns the stored outcome of the same earlier request.
   * Throws 422 idempotency_key_reused for a different request under the key, 409
   * idempotency_in_progress while the first one runs, 503 when Redis is unreachable.
   */
  async start(scope: IdempotencyScope, fingerprint: string): Promise<IdempotencyStart> {
    // Hashing the client's key bounds the Redis key's length whatever characters it uses.
    const key = `idempotency:${scope.apiKeyId}:${createHash('sha256').update(scope.idempotencyKey).digest('hex')}`;
    const marker = JSON.stringify({ state: 'running', fingerprint, lease: randomUUID() } satisfies StoredRecord);
    // A second round only happens when the record expired between the two commands.
    for (let round = 0; round < 2; round++) {
      const [claimed, current] = await this.claim(key, marker);
      if (claimed) return { lease: new IdempotencyLease(this.redis, key, marker, fingerprint, this.options.ttlSeconds, this.logger) };
      if (current === null) continue;
      const record = JSON.parse(current) as StoredRecord;
      if (record.fingerprint !== fingerprint) {
        throw new ApiError(
          422,
          TranslationErrorCode.IdempotencyKeyReused,
          'This Idempotency-Key was already used for a different request (method, path or body); use a new key for a new request',
        );
      }
      if (record.state === 'done') return { replay: record.outcome };
      break;
    }
    throw new ApiError(
      409,
      TranslationErrorCode.IdempotencyInProgress,
      'A request with this Idempotency-Key is still being processed; retry shortly to receive its response',
      {},
      { 'retry-after': '1' },
    );
  }

  private async claim(key: string, marker: string): Promise<[boolean, string | null]> {
    try {
      if (await this.redis.set(key, marker, 'PX', LEASE_MS, 'NX')) return [true, null];
      return [false, await this.redis.get(key)];
    } catch (error) {
      throw unavailable(error);
    }
  }
}
