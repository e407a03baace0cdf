import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { BATCH_CHUNK_SIZE, BatchProgress, TranslateBatchJob, UNPROCESSABLE_REASON, type BatchJob, type BatchText, type TranslatedText } from '@platform/batches';
import { QueueName } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { PermanentJobError, ProcessJob, QueueWorker, WorkerRuntime } from '@platform/queue';
import { ReviewTasks } from '@platform/review';
import { EngineError } from '@platform/translation-engines';
import { TranslationPipeline, type FormalityOutcome } from '@platform/translation-pipeline';
import type { Job, Queue } from 'bull';

/**
 * Chunks taken per step: the translation pipeline keeps their engine calls in flight together,
 * so Apertium's stages stay busy instead of draining at the end of every chunk.
 */
const CHUNKS_PER_STEP = 4;
/**
 * Steps translated at once. The next step is already in the engine while one is stored, so the
 * engine does not drain and wait for the database between steps; steps are still stored in order.
 */
const STEPS_IN_FLIGHT = 2;

/**
 * Works a batch off a few chunks at a time, storing each step's translations in input order, so
 * a batch taken up again (after a crash, a retry or a restart) continues where it stopped.
 */
@Injectable()
export class TranslateBatchWorker extends QueueWorker {
  private stopping = false;

  constructor(
    @InjectQueue(QueueName.Batches) queue: Queue,
    runtime: WorkerRuntime,
    private readonly progress: BatchProgress,
    private readonly pipeline: TranslationPipeline,
    private readonly review: ReviewTasks,
  ) {
    super(queue, runtime);
  }

  /** Running batches stop after their current step instead of holding up the shutdown. */
  override async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await super.beforeApplicationShutdown();
  }

  @ProcessJob(TranslateBatchJob)
  async translate(job: Job<TranslateBatchJob>): Promise<string> {
    const batch = await this.progress.find(job.data.jobId);
    // Expired and deleted, or finished by an earlier delivery of this job.
    if (batch?.status !== 'processing') return 'nothing to do';
    // A review-tier job's sample goes to review with its last translations; the last answer completes it.
    const reviewed = batch.tier === 'review';
    const onAllTranslated = reviewed ? this.review.sample.bind(this.review) : undefined;
    try {
      const steps: Promise<TranslatedStep>[] = [];
      let after = -1;
      let exhausted = false;
      for (;;) {
        while (!exhausted && !this.stopping && steps.length < STEPS_IN_FLIGHT) {
          const texts = await this.progress.pending(batch.id, BATCH_CHUNK_SIZE * CHUNKS_PER_STEP, after);
          exhausted = texts.length === 0;
          if (exhausted) break;
          after = texts.at(-1)!.idx;
          const step = this.translateChunk(batch, texts);
          // Awaited in turn below; a step failing while an earlier one is awaited must not go unhandled.
          step.catch(() => undefined);
          steps.push(step);
        }
        const step = steps.shift();
        if (!step) break;
        const { texts, formality } = await step;
        await this.progress.record(batch.id, texts, onAllTranslated, formality);
      }
      if (this.stopping && !exhausted) {
        // A new job rather than a failed attempt: stopping workers must not use up the retries.
        await this.progress.requeue(batch.id);
        return 'handed over';
      }
      if (reviewed) return 'in review';
      await this.progress.complete(batch.id);
      return 'done';
    } catch (error) {
      // The input or the language pair itself is refused: another attempt would be refused too.
      const permanent = error instanceof ApiError || error instanceof PermanentJobError;
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (permanent || lastAttempt) await this.progress.fail(batch.id, reasonFor(error));
      throw permanent ? new PermanentJobError(reasonFor(error)) : error;
    }
  }

  /**
   * Each text keeps the source language fixed for it when the batch was accepted, what
   * memories decided then (the stored translations and the sentences kept as sent), and the
   * style profile as it was then.
   */
  private async translateChunk(batch: BatchJob, texts: BatchText[]): Promise<TranslatedStep> {
    const prepared = await this.pipeline.prepare({
      texts: texts.map((text) => text.text),
      sources: texts.map((text) => text.detectedSource ?? undefined),
      target: batch.target,
      format: batch.format,
      htmlAttributes: batch.htmlAttributes,
      tier: batch.tier,
      glossary: batch.glossary ?? undefined,
      missing: batch.missing ?? undefined,
      style: batch.styleProfile ?? undefined,
    });
    const sentence = new Map<number, number>();
    const decided = prepared.sentences.map(({ text }) => {
      const n = sentence.get(text) ?? 0;
      sentence.set(text, n + 1);
      return texts[text].plan?.[n] ?? undefined;
    });
    const { translations, formality } = await this.pipeline.run(prepared, this.pipeline.plan(prepared, decided));
    return { texts: texts.map((text, n) => ({ idx: text.idx, translation: translations[n] })), formality };
  }
}

/** A step's translations, and which engines applied the style profile's formality to them. */
interface TranslatedStep {
  texts: TranslatedText[];
  formality?: FormalityOutcome;
}

/** The `error` a failed job shows its owner: our own failures stay in the logs. */
function reasonFor(error: unknown): string {
  if (error instanceof ApiError || error instanceof PermanentJobError) return error.message;
  if (error instanceof EngineError) return 'The translation engine kept failing; the words were refunded';
  return UNPROCESSABLE_REASON;
}
