import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { ApiKeyPrincipal } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { GlossaryService } from '@platform/glossaries';
import { OutboxService } from '@platform/outbox';
import { WordQuotaService } from '@platform/quota';
import { StyleProfileService } from '@platform/style-profiles';
import { TranslationMemory } from '@platform/translation-memory';
import { costCents, PricingConfig, TranslationPipeline, type PreparedTranslation, type TranslationPlan, type TranslationRequest } from '@platform/translation-pipeline';
import { DataSource, Repository } from 'typeorm';
import { newBatchJobId } from './batch-id';
import { BatchJob } from './batch-job.entity';
import { chargeReference } from './batch-progress.service';
import { assertBatchWithinLimits, BATCH_CHUNK_SIZE, chunksOf } from './batch-limits';
import type { BatchText, SentenceDecision } from './batch-text.entity';
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
    private readonly memory: TranslationMemory,
    private readonly glossaries: GlossaryService,
    private readonly outbox: OutboxService,
    private readonly styles: StyleProfileService,
  ) {}

  /**
   * Everything that can refuse a batch happens here, before it is accepted: limits, parameters,
   * every text against its format, the style profile (kept with the job as it is now), language
   * detection (per chunk), what memories translate (one
   * lookup for the whole batch, kept with each text so the worker translates what was charged)
   * and the quota, charged once under `batch:<job id>`. The job, its texts and the message that
   * queues it then commit together, so an accepted batch is never lost, even while Redis is
   * away. `reviewPool` records whether the platform's reviewers may review a job of tier review
   * (see ReviewRouting).
   */
  async submit(key: ApiKeyPrincipal, asked: BatchRequest, { reviewPool = false }: { reviewPool?: boolean } = {}): Promise<BatchJob> {
    assertBatchWithinLimits(asked.texts);
    const { request, style } = await this.styles.apply(key, asked);
    const tier = request.tier ?? 'basic';
    const format = request.format ?? 'text';
    if (request.missing && tier === 'review') throw ApiError.invalidParameter('missing "keep" is not available in tier review, whose reviewers check translations, not sources');
    const use = await this.memory.use(key, request);
    const glossary = request.glossary ? await this.glossaries.termsFor(key, request.glossary, request.target) : undefined;
    const htmlAttributes = request.html_attributes ?? true;
    const chunks = await this.prepare({ texts: request.texts, source: request.source, target: request.target, format, tier, glossary, htmlAttributes, missing: request.missing, style });
    const sentences = chunks.flatMap(({ prepared }) => prepared.sentences);
    const stored = use ? await this.memory.translationsFor(key, { target: request.target, sentences, ...use }) : [];
    let at = 0;
    const texts = chunks.flatMap(({ texts: chunk, prepared }, n) => {
      const plan = this.pipeline.plan(prepared, stored.slice(at, (at += prepared.sentences.length)));
      return textsOf(chunk, prepared, plan, n * BATCH_CHUNK_SIZE);
    });
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
      missing: request.missing ?? null,
      glossary: glossary ?? null,
      styleProfile: style ?? null,
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
          `INSERT INTO translation.batch_texts (job_id, idx, text, words, detected_source, plan, origin, untranslated)
           SELECT $1, * FROM unnest($2::int[], $3::text[], $4::int[], $5::text[], $6::jsonb[], $7::text[], $8::jsonb[])`,
          [
            job.id,
            texts.map((text) => text.idx),
            texts.map((text) => text.text),
            texts.map((text) => text.words),
            texts.map((text) => text.detectedSource),
            texts.map((text) => (text.plan && JSON.stringify(text.plan))),
            texts.map((text) => text.origin),
            texts.map((text) => (text.untranslated && JSON.stringify(text.untranslated))),
          ],
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

  /** Validates, detects and counts chunk by chunk, fixing each text's source language (given or detected). */
  private async prepare(request: TranslationRequest): Promise<{ texts: string[]; prepared: PreparedTranslation }[]> {
    const chunks: { texts: string[]; prepared: PreparedTranslation }[] = [];
    for (const texts of chunksOf(request.texts)) {
      const offset = chunks.length * BATCH_CHUNK_SIZE;
      const prepared = await this.pipeline.prepare({ ...request, texts }).catch((error: unknown) => {
        throw withTextOffset(error, offset);
      });
      chunks.push({ texts, prepared });
    }
    return chunks;
  }
}

/** A prepared chunk's texts as stored: what was charged for each and what memories decided. */
function textsOf(texts: string[], prepared: PreparedTranslation, plan: TranslationPlan, offset: number): Omit<BatchText, 'jobId' | 'translation'>[] {
  const decisions = prepared.documents.map((): SentenceDecision[] => []);
  prepared.sentences.forEach((sentence, index) => {
    const decision = plan.sentences[index];
    decisions[sentence.text].push(decision === 'engine' ? null : decision);
  });
  return prepared.documents.map((_, n) => ({
    idx: offset + n,
    text: texts[n],
    words: plan.wordsPerText[n],
    detectedSource: prepared.detectedSources[n],
    plan: decisions[n].some((decision) => decision !== null) ? decisions[n] : null,
    origin: plan.origins[n],
    untranslated: plan.untranslated[n].length > 0 ? [...plan.untranslated[n]] : null,
  }));
}

/** The pipeline numbers texts within the chunk it was given; the client needs their index in the batch. */
function withTextOffset(error: unknown, offset: number): unknown {
  if (!(error instanceof ApiError)) return error;
  const message = error.message.replace(/\btexts\[(\d+)\]/g, (_, n: string) => `texts[${Number(n) + offset}]`);
  return new ApiError(error.getStatus(), error.code, message, error.extra, error.headers);
}
