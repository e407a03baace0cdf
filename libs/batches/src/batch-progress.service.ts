import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { OutboxService } from '@platform/outbox';
import { WordQuotaService } from '@platform/quota';
import { combinations, MetricsRegistry } from '@platform/service-kit';
import { TRANSLATION_TIERS, type FormalityOutcome } from '@platform/translation-pipeline';
import { WebhookEvents } from '@platform/webhooks';
import type { Histogram } from 'prom-client';
import { DataSource, EntityManager, IsNull, MoreThan, Repository } from 'typeorm';
import { BatchJob } from './batch-job.entity';
import { BatchText } from './batch-text.entity';
import { RESULT_COLUMNS, styleOf, toResults, type BatchCompletedData } from './batch-view';
import { batchQueueJobId, TranslateBatchJob } from './translate-batch.job';

/** How long a finished job stays readable (SPEC: 30 days after completion). */
const RETENTION = `interval '30 days'`;
const DELETE_AT_ONCE = 100;
const REQUEUE_DELAY_MS = 1000;
/** From seconds for a small batch to days for one waiting for its reviewers. */
const DURATION_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 4 * 3600, 24 * 3600, 3 * 24 * 3600, 7 * 24 * 3600];

export interface TranslatedText {
  idx: number;
  translation: string;
}

/** Runs in the transaction that stores a job's last translations, exactly once per job. */
export type AllTranslatedHook = (manager: EntityManager, job: BatchJob) => Promise<void>;

/**
 * The worker's side of a batch. Every step is safe to repeat: a translation is stored only
 * where none is yet and a job finishes only once, so a batch picked up again after a crash, or
 * by two workers at once, ends with each text translated and counted once.
 */
@Injectable()
export class BatchProgress {
  private readonly duration: Histogram<string>;

  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(BatchJob) private readonly jobs: Repository<BatchJob>,
    @InjectRepository(BatchText) private readonly texts: Repository<BatchText>,
    private readonly quota: WordQuotaService,
    private readonly webhooks: WebhookEvents,
    private readonly outbox: OutboxService,
    metrics: MetricsRegistry,
  ) {
    this.duration = metrics.histogram(
      'translation_batch_duration_seconds',
      'Batch jobs finished, by tier and final status (done, failed), and the time from their submission to then',
      ['tier', 'status'],
      DURATION_BUCKETS,
      combinations({ tier: TRANSLATION_TIERS, status: ['done', 'failed'] }),
    );
  }

  find(jobId: string): Promise<BatchJob | null> {
    return this.jobs.findOneBy({ id: jobId });
  }

  /** The next texts without a translation after text `after`, in input order. */
  pending(jobId: string, limit: number, after = -1): Promise<BatchText[]> {
    return this.texts.find({ where: { jobId, idx: MoreThan(after), translation: IsNull() }, order: { idx: 'ASC' }, take: limit });
  }

  /**
   * Stores a chunk's translations and advances the job's progress by the texts newly done, adding
   * the engines that applied or ignored a formality to the job's. `onAllTranslated` runs in the
   * same transaction when this chunk completes the job's texts.
   */
  async record(jobId: string, translated: TranslatedText[], onAllTranslated?: AllTranslatedHook, formality?: FormalityOutcome): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const stored = await rows(
        manager,
        `UPDATE translation.batch_texts t SET translation = u.translation
         FROM unnest($2::int[], $3::text[]) AS u(idx, translation)
         WHERE t.job_id = $1 AND t.idx = u.idx AND t.translation IS NULL
         RETURNING t.idx`,
        [jobId, translated.map((t) => t.idx), translated.map((t) => t.translation)],
      );
      await manager.query(
        `UPDATE translation.batch_jobs SET done_count = done_count + $2, progress_at = now(),
           formality_applied_by = ARRAY(SELECT DISTINCT unnest(formality_applied_by || $3::text[]) ORDER BY 1),
           formality_ignored_by = ARRAY(SELECT DISTINCT unnest(formality_ignored_by || $4::text[]) ORDER BY 1)
         WHERE id = $1`,
        [jobId, stored.length, formality?.appliedBy ?? [], formality?.ignoredBy ?? []],
      );
      if (!onAllTranslated || stored.length === 0) return;
      const job = await manager.findOneByOrFail(BatchJob, { id: jobId });
      if (job.doneCount === job.total) await onAllTranslated(manager, job);
    });
  }

  /** Marks a fully translated job done and announces it; false when it was finished already. */
  complete(jobId: string): Promise<boolean> {
    return this.dataSource.transaction((manager) => this.completeWithin(manager, jobId));
  }

  /** `complete` inside the caller's transaction, so that it commits with the caller's own changes. */
  async completeWithin(manager: EntityManager, jobId: string): Promise<boolean> {
    const job = await this.finish(manager, jobId, 'done', null);
    if (!job) return false;
    const texts = await manager.find(BatchText, { select: RESULT_COLUMNS, where: { jobId }, order: { idx: 'ASC' } });
    await this.announce(manager, job, toResults(job, texts));
    return true;
  }

  /**
   * Marks a job failed, gives its words back and announces it, all in one transaction: the
   * refund happens exactly when the failure commits. False when the job was finished already.
   */
  fail(jobId: string, reason: string): Promise<boolean> {
    return this.dataSource.transaction((manager) => this.failWithin(manager, jobId, reason));
  }

  /** `fail` inside the caller's transaction. */
  async failWithin(manager: EntityManager, jobId: string, reason: string): Promise<boolean> {
    const job = await this.finish(manager, jobId, 'failed', reason);
    if (!job) return false;
    await this.quota.refund({ reference: chargeReference(jobId) }, manager);
    await this.announce(manager, job, []);
    return true;
  }

  /**
   * Queues a new job for the texts still pending, when a worker stops in the middle of a batch.
   * It waits a moment so that the stopping worker, which takes the next job as it completes
   * this one, does not take it back.
   */
  async requeue(jobId: string): Promise<void> {
    await this.dataSource.transaction((manager) => this.requeueWithin(manager, jobId, { delay: REQUEUE_DELAY_MS }));
  }

  /**
   * Queues a processing job again under its next Bull id, in the caller's transaction; a
   * `recovery` (its queue entry was lost) counts towards the job's limit of recoveries.
   * False when the job is not processing.
   */
  async requeueWithin(manager: EntityManager, jobId: string, { delay, recovery = false }: { delay?: number; recovery?: boolean }): Promise<boolean> {
    const [queued] = (await rows(
      manager,
      `UPDATE translation.batch_jobs SET requeues = requeues + 1, recoveries = recoveries + $2, progress_at = now()
       WHERE id = $1 AND status = 'processing' RETURNING requeues`,
      [jobId, recovery ? 1 : 0],
    )) as { requeues: number }[];
    if (!queued) return false;
    await this.outbox.enqueue(manager, new TranslateBatchJob(jobId), { jobId: batchQueueJobId(jobId, queued.requeues), delay });
    return true;
  }

  /** Deletes finished jobs past their expiry, texts included; returns how many. */
  async deleteExpired(): Promise<number> {
    let deleted = 0;
    for (;;) {
      const gone = await this.dataSource.transaction((manager) =>
        rows(
          manager,
          `DELETE FROM translation.batch_jobs WHERE id IN (
             SELECT id FROM translation.batch_jobs WHERE status IN ('done', 'failed') AND expires_at < now() LIMIT $1)
           RETURNING id`,
          [DELETE_AT_ONCE],
        ),
      );
      deleted += gone.length;
      if (gone.length < DELETE_AT_ONCE) return deleted;
    }
  }

  /** Moves a job that is still processing to its final state; null when it is not processing. */
  private async finish(manager: EntityManager, jobId: string, status: 'done' | 'failed', error: string | null): Promise<BatchJob | null> {
    const finished = await rows(
      manager,
      `UPDATE translation.batch_jobs
       SET status = $2::text, error = $3, completed_at = now(), expires_at = now() + ${RETENTION}
       WHERE id = $1 AND status = 'processing' AND ($2::text = 'failed' OR done_count = total)
       RETURNING id`,
      [jobId, status, error],
    );
    if (finished.length === 0) return null;
    const job = await manager.findOneByOrFail(BatchJob, { id: jobId });
    this.duration.observe({ tier: job.tier, status }, (job.completedAt!.getTime() - job.createdAt.getTime()) / 1000);
    return job;
  }

  private async announce(manager: EntityManager, job: BatchJob, results: BatchCompletedData['results']): Promise<void> {
    const data: BatchCompletedData = {
      job: job.id,
      status: job.status as BatchCompletedData['status'],
      target: job.target,
      tier: job.tier,
      ...styleOf(job),
      words: job.words,
      cost_cents: job.costCents,
      results,
      ...(job.error !== null && { error: job.error }),
    };
    await this.webhooks.publish(manager, { accountId: job.accountId, sandbox: job.sandbox, type: 'batch.completed', data });
  }
}

/** The quota reference a batch is charged under; charging it again is a no-op. */
export function chargeReference(jobId: string): string {
  return `batch:${jobId}`;
}

async function rows(manager: EntityManager, sql: string, parameters: unknown[]): Promise<unknown[]> {
  // The structured result carries the rows of an UPDATE ... RETURNING.
  const result = await manager.queryRunner!.query(sql, parameters, true);
  return result.records;
}
