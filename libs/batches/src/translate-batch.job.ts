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
