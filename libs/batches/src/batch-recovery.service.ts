import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { BatchProgress } from './batch-progress.service';
import { batchQueueJobId, TranslateBatchJob } from './translate-batch.job';

/** The `error` of a job given up on: its queue entry was lost more often than allowed. */
export const UNPROCESSABLE_REASON = 'The batch could not be processed; the words were refunded';
/** The `error` of a job that stopped moving altogether. */
export const STUCK_REASON = 'The batch made no progress for too long; the words were refunded';

const AT_ONCE = 100;

/**
 * A job that can be recovered: processing, still for `$1` ms, and not waiting for reviewers (a
 * review-tier job whose texts are all translated has no queue entry by design; its last answer
 * completes it).
 */
const STILL = `j.status = 'processing'
  AND NOT (j.tier = 'review' AND j.done_count = j.total)
  AND j.progress_at < now() - make_interval(secs => $1::float8 / 1000)`;

/** Its queue entry is on its way: an outbox row not yet relayed. */
const IN_OUTBOX = `EXISTS (
  SELECT 1 FROM translation.outbox o
  WHERE o.dispatched_at IS NULL AND o.queue = '${TranslateBatchJob.queue}' AND o.payload->>'jobId' = j.id)`;

export interface RecoveryPolicy {
  /** How long a job must have been still before it is looked at. */
  quietMs: number;
  /** Recoveries a job may have had; losing its queue entry once more fails it. */
  maxRecoveries: number;
  /** Whether the queue still holds the Bull job of this id, waiting, delayed or running. */
  isQueued(queueJobId: string): Promise<boolean>;
}

export type Recovery = 'queued' | 'failed';

/**
 * Postgres is the record of every batch; Redis may lose jobs (restarted empty, a job failed by
 * Bull itself after its worker died too often). This finds processing jobs without a live queue
 * entry and queues them again, or fails (and refunds) those that were recovered too often or
 * stopped moving altogether. Every step locks its job with SKIP LOCKED and checks again under
 * the lock, so replicas doing the same never act on one job twice.
 */
@Injectable()
export class BatchRecovery {
  constructor(
    private readonly dataSource: DataSource,
    private readonly progress: BatchProgress,
  ) {}

  /** Jobs still for `quietMs` and not on their way through the outbox, stillest first. */
  async still(quietMs: number): Promise<string[]> {
    const found = await this.dataSource.query<{ id: string }[]>(
      `SELECT j.id FROM translation.batch_jobs j WHERE ${STILL} AND NOT ${IN_OUTBOX} ORDER BY j.progress_at LIMIT $2`,
      [quietMs, AT_ONCE],
    );
    return found.map((row) => row.id);
  }

  /**
   * Queues the job again when the queue no longer holds its current Bull job, or fails it once
   * it has used up its recoveries. Null when there was nothing to do: the job moved, is queued,
   * or another replica is at it.
   */
  recover(jobId: string, policy: RecoveryPolicy): Promise<Recovery | null> {
    return this.whileStill(jobId, policy.quietMs, IN_OUTBOX, async (manager, job) => {
      if (await policy.isQueued(batchQueueJobId(jobId, job.requeues))) return null;
      if (job.recoveries >= policy.maxRecoveries) return (await this.progress.failWithin(manager, jobId, UNPROCESSABLE_REASON)) ? 'failed' : null;
      return (await this.progress.requeueWithin(manager, jobId, { recovery: true })) ? 'queued' : null;
    });
  }

  /** Fails (and refunds) jobs that have not moved for `stuckMs`, whatever the queue says; returns how many. */
  async expireStuck(stuckMs: number): Promise<number> {
    let expired = 0;
    for (;;) {
      const found = await this.dataSource.query<{ id: string }[]>(`SELECT j.id FROM translation.batch_jobs j WHERE ${STILL} LIMIT $2`, [stuckMs, AT_ONCE]);
      let round = 0;
      for (const { id } of found) {
        if (await this.whileStill(id, stuckMs, 'false', (manager) => this.progress.failWithin(manager, id, STUCK_REASON))) round++;
      }
      expired += round;
      // Jobs another replica holds stay in the list; the next pass sees them again.
      if (found.length < AT_ONCE || round === 0) return expired;
    }
  }

  /** Runs `act` in a transaction holding the job's row, if the job is still (and not `unless`) under the lock. */
  private whileStill<T>(
    jobId: string,
    quietMs: number,
    unless: string,
    act: (manager: EntityManager, job: { requeues: number; recoveries: number }) => Promise<T>,
  ): Promise<T | null> {
    return this.dataSource.transaction(async (manager) => {
      const [job] = await manager.query<{ requeues: number; recoveries: number }[]>(
        `SELECT j.requeues, j.recoveries FROM translation.batch_jobs j WHERE ${STILL} AND j.id = $2 AND NOT ${unless} FOR UPDATE OF j SKIP LOCKED`,
        [quietMs, jobId],
      );
      return job ? act(manager, job) : null;
    });
  }
}
