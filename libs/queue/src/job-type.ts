import { currentTraceContext } from '@platform/service-kit';
import type { Job, JobOptions, Queue } from 'bull';

export interface RetryPolicy {
  /** Tries in total, the first one included. */
  attempts: number;
  /** Delay before the first retry; it doubles with each further retry. */
  backoffMs: number;
  maxBackoffMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, backoffMs: 5_000, maxBackoffMs: 10 * 60_000 };

/** Name under which the backoff strategy below is registered on every queue. */
export const JITTER_BACKOFF = 'exponential-jitter';

/**
 * Exponential backoff with equal jitter: half of each delay is fixed so retries keep spreading
 * out, half is random so jobs that failed together (an engine outage) do not retry together.
 */
export function exponentialJitter(attemptsMade: number, _error: Error, options: { delayMs: number; maxDelayMs: number }): number {
  const ceiling = Math.min(options.maxDelayMs, options.delayMs * 2 ** Math.max(0, attemptsMade - 1));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/**
 * A job is a class: its name is the Bull job name, its fields are the payload, and its statics
 * say which queue carries it and how it is retried. Renaming a job class renames the job, so
 * jobs already queued under the old name would find no handler.
 *
 *   class TranslateBatchJob {
 *     static readonly queue = QueueName.Batches;
 *     static readonly retry = { attempts: 8 };
 *     constructor(readonly batchId: string) {}
 *   }
 */
export interface JobType<T extends object = object> {
  new (...args: never[]): T;
  readonly name: string;
  readonly queue: string;
  readonly retry?: Partial<RetryPolicy>;
}

/** Bull options for a job type: its retry policy, and finished jobs expire so Redis stays small. */
export function jobOptions(type: JobType): JobOptions {
  const retry = { ...DEFAULT_RETRY, ...type.retry };
  return {
    attempts: retry.attempts,
    backoff: { type: JITTER_BACKOFF, options: { delayMs: retry.backoffMs, maxDelayMs: retry.maxBackoffMs } },
    removeOnComplete: { age: 24 * 3600, count: 1000 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}

/**
 * Adds a job to its queue; `options` may add e.g. a `jobId` that makes enqueueing idempotent.
 * With tracing on, the data also carries the active trace context (`traceparent`, `tracestate`),
 * which the consuming QueueWorker continues.
 */
export function enqueue<T extends object>(queue: Queue, job: T, options: JobOptions = {}): Promise<Job<T>> {
  const type = job.constructor as JobType<T>;
  if (type.queue !== queue.name) {
    throw new Error(`${type.name} belongs to queue "${type.queue}", not "${queue.name}"`);
  }
  return queue.add(type.name, { ...job, ...currentTraceContext() }, { ...jobOptions(type), ...options });
}
