import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { ApiKeyPrincipal } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { GlossaryService } from '@platform/glossaries';
import { OutboxService } from '@platform/outbox';
import { WordQuotaService } from '@platform/quota';
import { costCents, PricingConfig, TranslationPipeline, type TranslationRequest } from '@platform/translation-pipeline';
import { DataSource, Repository } from 'typeorm';
import { newBatchJobId } from './batch-id';
import { BatchJob } from './batch-job.entity';
import { chargeReference } from './batch-progress.service';
import { assertBatchWithinLimits, chunksOf } from './batch-limits';
import { BatchText } from './batch-text.entity';
import type { BatchRequest } from './batch-view';
import { batchQueueJobId, TranslateBatchJob } from './translate-batch.job';

@Injectable()
export class BatchService {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(BatchJob) private readonly jobs: Repository<BatchJob>,
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
   * together, so an accepted batch is never lost, even while Redis is away. `reviewPool` records
   * whether the platform's reviewers may review a job of tier review (see ReviewRouting).
   */
  async submit(key: ApiKeyPrincipal, request: BatchRequest, { reviewPool = false }: { reviewPool?: boolean } = {}): Promise<BatchJob> {
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
      reviewPool: tier === 'review' && reviewPool,
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
        // One array per column: TypeORM's multi-row insert spent more time building its SQL than Postgres took to run it.
        await manager.query(
          `INSERT INTO translation.batch_texts (job_id, idx, text, words, detected_source)
           SELECT $1, * FROM unnest($2::int[], $3::text[], $4::int[], $5::text[])`,
          [job.id, texts.map((text) => text.idx), texts.map((text) => text.text), texts.map((text) => text.words), texts.map((text) => text.detectedSource)],
        );
        await this.outbox.enqueue(manager, new TranslateBatchJob(job.id), { jobId: batchQueueJobId(job.id, 0) });
      });
    } catch (error) {
      // Unless the job committed after all (its commit went through, the answer to it was lost).
      await this.quota.refundEventually({ reference }, (manager) => manager.exists(BatchJob, { where: { id: job.id } }));
      throw error;
    }
    return job;
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
