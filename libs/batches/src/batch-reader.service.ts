import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { AccountMode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { Repository } from 'typeorm';
import { decodeBatchCursor, encodeBatchCursor } from './batch-cursor';
import { BATCH_JOB_ID } from './batch-id';
import { BatchJob } from './batch-job.entity';
import { BatchText } from './batch-text.entity';
import { RESULT_COLUMNS, SUMMARY_COLUMNS, toSummary, toView, type BatchPage, type BatchSummary, type BatchView } from './batch-view';

/** A text of a job beside its translation, which is null until its chunk is translated. */
export interface BatchTextView {
  index: number;
  source_text: string;
  translation: string | null;
  detected_source: string | null;
  words: number;
}

export interface BatchTextPage {
  job: BatchSummary;
  /** Why a failed job failed; null otherwise. */
  error: string | null;
  texts: BatchTextView[];
  /** Texts of the job in all. */
  total: number;
}

const toTextView = (text: BatchText): BatchTextView => ({
  index: text.idx,
  source_text: text.text,
  translation: text.translation,
  detected_source: text.detectedSource,
  words: text.words,
});

/**
 * Reads batch jobs of an account's mode, for whoever shows them (the public API, the console),
 * without what submitting needs. Unknown ids, other accounts' and the other mode's jobs are 404 alike.
 */
@Injectable()
export class BatchReader {
  constructor(
    @InjectRepository(BatchJob) private readonly jobs: Repository<BatchJob>,
    @InjectRepository(BatchText) private readonly texts: Repository<BatchText>,
  ) {}

  async view(mode: AccountMode, jobId: string): Promise<BatchView> {
    const job = await this.job(mode, jobId);
    const texts = job.status === 'done' ? await this.texts.find({ select: RESULT_COLUMNS, where: { jobId: job.id }, order: { idx: 'ASC' } }) : undefined;
    return toView(job, texts);
  }

  /**
   * A page of the jobs of the caller's account and mode, newest first, after `cursor` (the
   * previous page's `next_cursor`). Jobs submitted meanwhile are newer than any cursor, so they
   * neither repeat nor push others across pages.
   */
  async list({ accountId, sandbox }: AccountMode, { limit, cursor }: { limit: number; cursor?: string }): Promise<BatchPage> {
    const after = cursor === undefined ? undefined : decodeBatchCursor(cursor);
    const query = this.jobs
      .createQueryBuilder('j')
      .select(SUMMARY_COLUMNS.map((column) => `j.${column}`))
      .addSelect(`to_char(j.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`, 'cursor_at')
      .where('j.account_id = :accountId AND j.sandbox = :sandbox', { accountId, sandbox })
      .orderBy('j.created_at', 'DESC')
      .addOrderBy('j.id', 'DESC')
      .limit(limit + 1);
    // Compared in SQL to the microsecond: a JavaScript Date would cut created_at to milliseconds.
    if (after) query.andWhere('(j.created_at, j.id) < (CAST(:at AS timestamptz), :id)', after);
    const { entities, raw } = await query.getRawAndEntities<{ cursor_at: string }>();
    const jobs = entities.slice(0, limit);
    const last = jobs.length - 1;
    const more = entities.length > limit;
    return { batches: jobs.map(toSummary), next_cursor: more ? encodeBatchCursor({ at: raw[last].cursor_at, id: jobs[last].id }) : null };
  }

  /** The job with its texts in input order from `offset`, translated or not yet; all of them without `limit`. */
  async withTexts(mode: AccountMode, jobId: string, { offset = 0, limit }: { offset?: number; limit?: number } = {}): Promise<BatchTextPage> {
    const job = await this.job(mode, jobId);
    const texts = await this.texts.find({ where: { jobId: job.id }, order: { idx: 'ASC' }, skip: offset, take: limit });
    return { job: toSummary(job), error: job.error, texts: texts.map(toTextView), total: job.total };
  }

  private async job({ accountId, sandbox }: AccountMode, jobId: string): Promise<BatchJob> {
    const job = BATCH_JOB_ID.test(jobId) ? await this.jobs.findOneBy({ id: jobId, accountId, sandbox }) : null;
    if (!job) throw ApiError.notFound(`Batch job ${jobId} not found`);
    return job;
  }
}
