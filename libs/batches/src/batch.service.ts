import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { AccountMode, ApiKeyPrincipal } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { GlossaryService } from '@platform/glossaries';
import { OutboxService } from '@platform/outbox';
import { WordQuotaService } from '@platform/quota';
import { costCents, PricingConfig, TranslationPipeline, type TranslationRequest } from '@platform/translation-pipeline';
import { DataSource, Repository } from 'typeorm';
import { BATCH_JOB_ID, newBatchJobId } from './batch-id';
import { BatchJob } from './batch-job.entity';
import { chargeReference } from './batch-progress.service';
import { assertBatchWithinLimits, chunksOf } from './batch-limits';
import { BatchText } from './batch-text.entity';
import { decodeBatchCursor, encodeBatchCursor } from './batch-cursor';
import { RESULT_COLUMNS, SUMMARY_COLUMNS, toSummary, toView, type BatchPage, type BatchRequest, type BatchView } from './batch-view';
import { batchQueueJobId, TranslateBatchJob } from './translate-batch.job';

@Injectable()
export class BatchService {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(BatchJob) private readonly jobs: Repository<BatchJob>,
    @InjectRepository(BatchText) private readonly texts: Repository<BatchText>,
    private readonly pipeline: TranslationPipeline,
    private readonly pricing: PricingConfig,
    private readonly quota: WordQuotaService,
    private readonly glossaries: GlossaryService,
    private readonly outbox: OutboxService,
  ) {}

  /**
   * Everything that can refuse a batch happens here, before it is accepted: limits, parameters,
   * every text against its format, language detection (per chunk) and the quota, charged once
   * under `batch:<job id>`. The job, its texts and the message that queues it then commit
   * together, so an accepted batch is never lost, even while Redis is away.
   */
  async submit(key: ApiKeyPrincipal, request: BatchRequest): Promise<BatchJob> {
    assertBatchWithinLimits(request.texts);
    const tier = request.tier ?? 'basic';
    const format = request.format ?? 'text';
    const glossary = request.glossary ? await this.glossaries.termsFor(key, request.glossary, request.target) : undefined;
    const htmlAttributes = request.html_attributes ?? true;
    const texts = await this.prepare({ texts: request.texts, source: request.source, target: request.target, format, tier, glossary, htmlAttributes });
    const words = texts.reduce((sum, text) => sum + text.words, 0);
    const job = this.jobs.create({
      id: newBatchJobId(),
      accountId: key.accountId,
      keyId: key.keyId,
      status: 'processing',
      source: request.source ?? null,
      target: request.target,
      format,
      htmlAttributes,
      tier,
      sandbox: key.sandbox,
      glossary: glossary ?? null,
      total: texts.length,
      doneCount: 0,
      words,
      costCents: costCents(this.pricing, tier, words),
      error: null,
      completedAt: null,
      expiresAt: null,
    });

    const reference = chargeReference(job.id);
    await this.quota.charge({ key, words, costCents: job.costCents, reference });
    try {
      await this.dataSource.transaction(async (manager) => {
        await manager.insert(BatchJob, job);
        // 1,000 texts of 6 columns stay far below Postgres' 65,535 parameters per statement.
        await manager.insert(BatchText, texts.map((text) => ({ ...text, jobId: job.id })));
        await this.outbox.enqueue(manager, new TranslateBatchJob(job.id), { jobId: batchQueueJobId(job.id, 0) });
      });
    } catch (error) {
      await this.quota.refund({ reference });
      throw error;
    }
    return job;
  }

  /** A job of the caller's account and mode; 404 for unknown ids, other accounts' and the other mode's jobs alike. */
  async view({ accountId, sandbox }: AccountMode, jobId: string): Promise<BatchView> {
    const job = BATCH_JOB_ID.test(jobId) ? await this.jobs.findOneBy({ id: jobId, accountId, sandbox }) : null;
    if (!job) throw ApiError.notFound(`Batch job ${jobId} not found`);
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

  /** Validates and counts chunk by chunk, fixing each text's source language (given or detected). */
  private async prepare(request: TranslationRequest): Promise<Omit<BatchText, 'jobId'>[]> {
    const prepared: Omit<BatchText, 'jobId'>[] = [];
    for (const chunk of chunksOf(request.texts)) {
      const offset = prepared.length;
      const { wordsPerText, detectedSources } = await this.pipeline.prepare({ ...request, texts: chunk }).catch((error: unknown) => {
        throw withTextOffset(error, offset);
      });
      chunk.forEach((text, n) => prepared.push({ idx: offset + n, text, translation: null, words: wordsPerText[n], detectedSource: detectedSources[n] }));
    }
    return prepared;
  }
}

/** The pipeline numbers texts within the chunk it was given; the client needs their index in the batch. */
function withTextOffset(error: unknown, offset: number): unknown {
  if (!(error instanceof ApiError)) return error;
  const message = error.message.replace(/\btexts\[(\d+)\]/g, (_, n: string) => `texts[${Number(n) + offset}]`);
  return new ApiError(error.getStatus(), error.code, message, error.extra, error.headers);
}
