import { QueueName } from '@platform/contracts';

/**
 * Translates the texts of a batch that have no translation yet. Engine outages are retried for
 * 8 to 15 minutes before the batch fails; a stopping worker hands the rest to a new job.
 */
export class TranslateBatchJob {
  static readonly queue = QueueName.Batches;
  static readonly retry = { attempts: 8, backoffMs: 10_000, maxBackoffMs: 5 * 60_000 };

  constructor(readonly jobId: string) {}
}

/**
 * The Bull job id of a batch each time it is queued (`requeues` times queued again before): the
 * reconciler finds a batch's current queue entry by it, and Bull ignores a second enqueue of an
 * id it still holds, so a relay that sends one outbox row twice queues the batch once.
 */
export function batchQueueJobId(jobId: string, requeues: number): string {
  return `batch:${jobId}:${requeues}`;
}
