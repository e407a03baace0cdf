import { InjectQueue } from '@nestjs/bull';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { BatchRecovery, TranslateBatchJob, type RecoveryPolicy } from '@platform/batches';
import { QueueName } from '@platform/contracts';
import { settledJobState } from '@platform/queue';
import type { Job, JobStatus, Queue } from 'bull';

export const BATCH_RECONCILER_OPTIONS = Symbol('BATCH_RECONCILER_OPTIONS');

export interface BatchReconcilerOptions {
  intervalMs: number;
  /** BATCH_REQUEUE_AFTER_MS */
  requeueAfterMs: number;
  maxRecoveries: number;
  /** BATCH_STUCK_AFTER_MS */
  stuckAfterMs: number;
}

/** States in which Bull will still run a job. */
const QUEUED: ReadonlySet<JobStatus | 'stuck'> = new Set(['waiting', 'active', 'delayed', 'paused']);
/** A Redis command that takes longer fails the job's check; the row lock it holds is released. */
const REDIS_TIMEOUT_MS = 5000;

/**
 * Makes every batch end `done` or `failed`, whatever happens to workers and Redis: on each tick
 * it queues again the processing jobs whose Bull job is gone (Redis restarted empty, Bull failed
 * the job after its workers died too often) and fails, refunded and announced, those recovered
 * too often or not moving at all. A batch job Bull fails in this process is looked at at once,
 * without waiting for BATCH_REQUEUE_AFTER_MS. Every replica reconciles; BatchRecovery locks
 * each job, so no two act on one.
 */
@Injectable()
export class BatchReconciler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('BatchReconciler');
  private readonly failedNow = new Set<string>();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopping = false;
  private lastProblem?: string;

  constructor(
    @Inject(BATCH_RECONCILER_OPTIONS) private readonly options: BatchReconcilerOptions,
    @InjectQueue(QueueName.Batches) private readonly queue: Queue,
    private readonly recovery: BatchRecovery,
  ) {}

  onApplicationBootstrap(): void {
    this.queue.on('failed', (job: Job) => void this.onFailed(job));
    this.timer = setInterval(() => this.run(), this.options.intervalMs).unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** A retried job is back in the queue (delayed); one failed for good may leave its batch behind. */
  private async onFailed(job: Job): Promise<void> {
    if (job.name !== TranslateBatchJob.name || !(await job.isFailed().catch(() => false))) return;
    this.failedNow.add((job.data as TranslateBatchJob).jobId);
    this.run();
  }

  private run(): void {
    if (this.stopping) return;
    this.running ??= this.tick().finally(() => {
      this.running = undefined;
      if (this.failedNow.size > 0) this.run();
    });
  }

  private async tick(): Promise<void> {
    // Taken whatever happens below: were they lost with Redis, the regular pass covers them.
    const failedNow = [...this.failedNow];
    this.failedNow.clear();
    try {
      // Without Redis nothing can be told about queue entries; stuck jobs are still failed.
      if (this.queue.client.status === 'ready') {
        for (const jobId of failedNow) await this.recover(jobId, 0);
        for (const jobId of await this.recovery.still(this.options.requeueAfterMs)) {
          if (this.stopping) return;
          await this.recover(jobId, this.options.requeueAfterMs);
        }
      }
      const expired = await this.recovery.expireStuck(this.options.stuckAfterMs);
      if (expired > 0) this.logger.warn({ msg: 'batch jobs stuck without progress failed and refunded', count: expired, stuckAfterMs: this.options.stuckAfterMs });
      this.lastProblem = undefined;
    } catch (error) {
      // One line per distinct problem rather than one per tick while a dependency is away.
      const err = error instanceof Error ? error.message : String(error);
      if (err !== this.lastProblem) this.logger.warn({ msg: 'could not reconcile batch jobs', err });
      this.lastProblem = err;
    }
  }

  private async recover(jobId: string, quietMs: number): Promise<void> {
    const policy: RecoveryPolicy = { quietMs, maxRecoveries: this.options.maxRecoveries, isQueued: (id) => this.isQueued(id) };
    const outcome = await this.recovery.recover(jobId, policy);
    if (outcome === 'queued') this.logger.warn({ msg: 'batch job had no queue entry; queued again', jobId });
    if (outcome === 'failed') this.logger.error({ msg: 'batch job lost its queue entry too often; failed and refunded', jobId, maxRecoveries: this.options.maxRecoveries });
  }

  private async isQueued(queueJobId: string): Promise<boolean> {
    const state = await withTimeout(async () => {
      const job = await this.queue.getJob(queueJobId);
      return job ? settledJobState(job) : undefined;
    }, REDIS_TIMEOUT_MS);
    return state !== undefined && QUEUED.has(state);
  }
}

async function withTimeout<T>(work: () => Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms)));
  try {
    return await Promise.race([work(), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
