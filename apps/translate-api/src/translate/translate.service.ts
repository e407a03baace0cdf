import { Injectable } from '@nestjs/common';
import type { ApiKeyPrincipal } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { GlossaryService } from '@platform/glossaries';
import { WordQuotaService } from '@platform/quota';
import { EngineError } from '@platform/translation-engines';
import { TranslationPipeline } from '@platform/translation-pipeline';
import { TranslateRequestDto } from './dtos/translate-request.dto';
import { TranslateResponseDto } from './dtos/translate-response.dto';
import { assertWithinLimits } from './translate-limits';

@Injectable()
export class TranslateService {
  constructor(
    private readonly pipeline: TranslationPipeline,
    private readonly quota: WordQuotaService,
    private readonly glossaries: GlossaryService,
  ) {}

  /**
   * Validate and count first, then charge atomically, then translate: a refused request costs
   * nothing, and a translation that fails gives back exactly what it was charged.
   */
  async translate(key: ApiKeyPrincipal, request: TranslateRequestDto): Promise<TranslateResponseDto> {
    assertWithinLimits(request.texts);
    const tier = request.tier ?? 'basic';
    if (tier === 'review') throw ApiError.invalidParameter('tier review runs asynchronously and requires batches, which this service does not offer yet');
    const glossary = request.glossary ? await this.glossaries.termsFor(key.accountId, request.glossary, request.target) : undefined;
    const prepared = await this.pipeline.prepare({ ...request, format: request.format ?? 'text', tier, glossary });

    const charge = await this.quota.charge({ keyId: key.keyId, words: prepared.words, costCents: prepared.costCents, limit: this.quota.limitFor(key) });
    try {
      const { translations } = await this.pipeline.run(prepared);
      return { ok: true, target: prepared.target, tier, translations, words: prepared.words, cost_cents: prepared.costCents, detected_source: prepared.detectedSource };
    } catch (error) {
      await this.quota.refund({ chargeId: charge.chargeId });
      if (error instanceof EngineError) throw ApiError.unavailable('The translation engine is unavailable; nothing was charged, retry later');
      throw error;
    }
  }
}
