import { Injectable } from '@nestjs/common';
import type { BatchAcceptedDto } from '@platform/batches';
import type { ApiKeyPrincipal } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { GlossaryService } from '@platform/glossaries';
import { formalityReport, StyleProfileService, type AppliedStyleProfile } from '@platform/style-profiles';
import { WordQuotaService } from '@platform/quota';
import { EngineError } from '@platform/translation-engines';
import { TranslationMemory } from '@platform/translation-memory';
import {
  NO_TYPOGRAPHY,
  TranslationPipeline,
  type Formality,
  type TranslationFormat,
  type TranslationPlan,
  type TranslationRun,
  type TranslationStyle,
  type TranslationTier,
} from '@platform/translation-pipeline';
import { BatchSubmission } from '../batches/batch-submission.service';
import { TranslateRequestDto } from './dtos/translate-request.dto';
import { TranslateResponseDto } from './dtos/translate-response.dto';
import { assertWithinLimits } from './translate-limits';

export interface TranslateAnswer {
  body: TranslateResponseDto | BatchAcceptedDto;
  /** What translated (memory, catalog, the engines), in order of first use; none for a review job. */
  engines: string[];
}

export type ImmediateTier = Exclude<TranslationTier, 'review'>;

/**
 * A request answered at once: tier basic or pro. The compatible APIs may also ask for a
 * formality (it wins over the style profile's) and, in HTML, elements to keep as sent.
 */
export type ImmediateRequest = Omit<TranslateRequestDto, 'tier'> & { tier?: ImmediateTier; formality?: Formality; ignoreTags?: string[] };

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
    private readonly memory: TranslationMemory,
    private readonly styles: StyleProfileService,
  ) {}

  /**
   * Validate, count and ask the memories first (one lookup for all sentences), then charge
   * atomically what will be translated, then translate: a refused request costs nothing, and a
   * translation that fails gives back exactly what it was charged (an engine taking over from a
   * failed one happens inside the one charged run). Tier review waits for people, so it becomes
   * a batch job, accepted exactly as POST /api/v1/batches would.
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

  private async run(key: ApiKeyPrincipal, asked: ImmediateRequest): Promise<ImmediateAnswer> {
    const tier = asked.tier ?? 'basic';
    const { request, style: profile } = await this.styles.apply(key, asked);
    const style = withFormality(profile, asked.formality);
    const use = await this.memory.use(key, request);
    const glossary = request.glossary ? await this.glossaries.termsFor(key, request.glossary, request.target) : undefined;
    const prepared = await this.pipeline.prepare({ ...request, format: request.format ?? 'text', tier, glossary, htmlAttributes: request.html_attributes, style });
    const stored = use ? await this.memory.translationsFor(key, { target: prepared.target, sentences: prepared.sentences, ...use }) : [];
    const plan = this.pipeline.plan(prepared, stored);

    const charge = await this.quota.charge({ key, words: plan.words, costCents: plan.costCents });
    try {
      const run = await this.pipeline.run(prepared, plan);
      const { translations, engines } = run;
      const body: TranslateResponseDto = {
        ok: true,
        target: prepared.target,
        tier,
        translations,
        words: plan.words,
        cost_cents: plan.costCents,
        detected_source: prepared.detectedSource,
        detected_sources: prepared.detectedSources,
        origins: plan.origins,
        ...(request.missing === 'keep' && untranslatedFields(prepared.format, plan)),
        ...styleFields(profile, style, run),
      };
      return { body, engines, wordsPerText: plan.wordsPerText };
    } catch (error) {
      await this.quota.refundEventually({ chargeId: charge.chargeId });
      if (error instanceof EngineError) throw ApiError.unavailable('The translation engine is unavailable; nothing was charged, retry later');
      throw error;
    }
  }
}

/** The profile's style with a formality the request asks for itself, which wins. */
function withFormality(profile: AppliedStyleProfile | undefined, formality: Formality | undefined): TranslationStyle | undefined {
  if (formality === undefined) return profile;
  return { doNotTranslate: profile?.doNotTranslate ?? [], typography: profile?.typography ?? NO_TYPOGRAPHY, formality };
}

/** The style profile applied and, when a formality was asked for, what became of it. */
function styleFields(
  profile: AppliedStyleProfile | undefined,
  style: TranslationStyle | undefined,
  { formality }: Pick<TranslationRun, 'formality'>,
): Pick<TranslateResponseDto, 'style_profile' | 'formality'> {
  const requested = style?.formality;
  return {
    ...(profile && { style_profile: profile.id }),
    ...(formality && requested && requested !== 'default' && { formality: formalityReport(requested, formality) }),
  };
}

/** Where texts came back untranslated: their indexes, and in JSON the pointers of their values (prefixed with the text's index). */
function untranslatedFields(format: TranslationFormat, plan: TranslationPlan): Pick<TranslateResponseDto, 'untranslated' | 'untranslated_paths'> {
  const untranslated = plan.untranslated.flatMap((paths, index) => (paths.length > 0 ? [index] : []));
  if (format !== 'json') return { untranslated };
  return { untranslated, untranslated_paths: plan.untranslated.flatMap((paths, index) => paths.map((path) => `/${index}${path}`)) };
}
