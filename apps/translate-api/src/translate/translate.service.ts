import { Injectable } from '@nestjs/common';
import type { BatchAcceptedDto } from '@platform/batches';
import type { ApiKeyPrincipal } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { GlossaryService } from '@platform/glossaries';
import { WordQuotaService } from '@platform/quota';
import { EngineError } from '@platform/translation-engines';
import { TranslationPipeline, type TranslationTier } from '@platform/translation-pipeline';
import { BatchSubmission } from '../batches/batch-submission.service';
import { TranslateRequestDto } from './dtos/translate-request.dto';
import { TranslateResponseDto } from './dtos/translate-response.dto';
import { assertWithinLimits } from './translate-limits';

export interface TranslateAnswer {
  body: TranslateResponseDto | BatchAcceptedDto;
  /** The engines that translated, in order of first use; none for a review job. */
  engines: string[];
}

export type ImmediateTier = Exclude<TranslationTier, 'review'>;

/** A request answered at once: tier basic or pro. */
export type ImmediateRequest = Omit<TranslateRequestDto, 'tier'> & { tier?: ImmediateTier };

export interface ImmediateAnswer extends TranslateAnswer {
  body: TranslateResponseDto;
  /** The words charged for each text, in the order of the texts. */
  wordsPerText: readonly number[];
}

@Injectable()
export class TranslateService {
  constructor(
    private readonly pipeline: TranslationPipeline,
    private readonly quota: WordQuotaService,
    private readonly glossaries: GlossaryService,
    private readonly batches: BatchSubmission,
  ) {}

  /**
   * Validate and count first, then charge atomically, then translate: a refused request costs
   * nothing, and a translation that fails gives back exactly what it was charged (an engine
   * taking over from a failed one happens inside the one charged run). Tier review
   * waits for people, so it becomes a batch job, accepted exactly as POST /api/v1/batches would.
   */
  async translate(key: ApiKeyPrincipal, request: TranslateRequestDto): Promise<TranslateAnswer> {
    assertWithinLimits(request.texts);
    const tier = request.tier ?? 'basic';
    if (tier === 'review') {
      const job = await this.batches.submit(key, request);
      return { body: { ok: true, job: job.id, status: 'processing' }, engines: [] };
    }
    return this.run(key, { ...request, tier });
  }

  /** Tiers basic and pro only, for the compatible APIs, which have no asynchronous answer. */
  translateNow(key: ApiKeyPrincipal, request: ImmediateRequest): Promise<ImmediateAnswer> {
    assertWithinLimits(request.texts);
    return this.run(key, request);
  }

  private async run(key: ApiKeyPrincipal, request: ImmediateRequest): Promise<ImmediateAnswer> {
    const tier = request.tier ?? 'basic';
    const glossary = request.glossary ? await this.glossaries.termsFor(key, request.glossary, request.target) : undefined;
    const prepared = await this.pipeline.prepare({ ...request, format: request.format ?? 'text', tier, glossary, htmlAttributes: request.html_attributes });

    const charge = await this.quota.charge({ key, words: prepared.words, costCents: prepared.costCents });
    try {
      const { translations, engines } = await this.pipeline.run(prepared);
      const body = { ok: true as const, target: prepared.target, tier, translations, words: prepared.words, cost_cents: prepared.costCents, detected_source: prepared.detectedSource, detected_sources: prepared.detectedSources };
      return { body, engines, wordsPerText: prepared.wordsPerText };
    } catch (error) {
      await this.quota.refundEventually({ chargeId: charge.chargeId });
      if (error instanceof EngineError) throw ApiError.unavailable('The translation engine is unavailable; nothing was charged, retry later');
      throw error;
    }
  }
}
