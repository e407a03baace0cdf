import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '@platform/errors';
import { ENGINE, EngineError, UnsupportedPairError, type EngineRequest, type TranslationEngine } from '@platform/translation-engines';
import { LanguageDetector } from './detection/language-detector';
import { htmlLayout } from './formats/html.format';
import { JsonDocument } from './formats/json.format';
import { plainTextLayout } from './formats/plain-text.format';
import type { TranslatableDocument } from './formats/translatable-document';
import { GlossaryMatcher } from './glossary/glossary-matcher';
import type { GlossaryTerms } from './glossary/glossary-terms';
import { costCents, PricingConfig } from './pricing/pricing.config';
import type { Piece, Segment } from './segments/segment';
import type { PreparedTranslation, TranslationFormat, TranslationRequest } from './translation-request';

/** Segments per engine call and characters per call (a longer single segment goes alone). */
const MAX_SEGMENTS_PER_CALL = 50;
const MAX_CHARS_PER_CALL = 5_000;
/** A failed engine call, and a segment that came back without all its placeholders, get one more try. */
const ENGINE_ATTEMPTS = 2;

/**
 * Turns translate requests into engine work and back: `prepare` validates, segments, counts
 * and prices without calling the engine (so quota can be charged first), `run` translates.
 */
@Injectable()
export class TranslationPipeline {
  constructor(
    @Inject(ENGINE) private readonly engine: TranslationEngine,
    private readonly pricing: PricingConfig,
    private readonly detector: LanguageDetector,
  ) {}

  /** Throws `ApiError` (422) for input that cannot be translated as asked. */
  async prepare(request: TranslationRequest): Promise<PreparedTranslation> {
    const { glossary, tier, target } = request;
    const enforced = glossary && tier !== 'basic' ? new GlossaryMatcher(glossary.entries) : undefined;
    const documents = request.texts.map((text, index) => parse(request.format, text, index, enforced));
    const plainTexts = documents.map((document) => document.segments.map((segment) => segment.plainText).join('\n'));

    // Checked before anything is charged: the pairs decide which sources are possible at all.
    const sources = (await this.engine.pairs()).filter((pair) => pair.target === target).map((pair) => pair.source);
    if (sources.length === 0) throw ApiError.invalidParameter(`target language ${target} is not available; see GET /api/v1/languages`);
    const languages = await this.languagesOf(request, plainTexts, sources);
    if (glossary) checkGlossary(glossary, languages, target);

    const textWords = documents.map((document) => document.segments.reduce((sum, segment) => sum + segment.words, 0));
    // A text already in the target language comes back as it is, and costs nothing.
    const wordsPerText = textWords.map((words, index) => (languages[index] === target ? 0 : words));
    const words = wordsPerText.reduce((sum, count) => sum + count, 0);
    return {
      detectedSource: mostWords(languages, textWords),
      detectedSources: languages,
      target,
      format: request.format,
      tier,
      words,
      wordsPerText,
      costCents: costCents(this.pricing, tier, words),
      documents,
      hints: glossary && tier === 'basic' ? hintsFor(glossary, plainTexts.join('\n')) : undefined,
    };
  }

  /**
   * Translates a prepared request. Throws `ApiError` (422) when the engine cannot do the pair,
   * `EngineError` when the engine keeps failing or keeps dropping a glossary term.
   */
  async run(prepared: PreparedTranslation): Promise<{ translations: string[] }> {
    const { detectedSources, target } = prepared;
    const results = new Map<Segment, Piece[]>();
    let pending = prepared.documents.flatMap((document, index) =>
      detectedSources[index] === target ? [] : document.segments.map((segment) => ({ segment, source: detectedSources[index] })),
    );
    for (let attempt = 1; pending.length > 0; attempt++) {
      const inputs = pending.map(({ segment, source }) => ({ source, text: segment.toEngine() }));
      const outputs = await this.translate(target, inputs, prepared.hints);
      const incomplete: typeof pending = [];
      pending.forEach((item, index) => {
        const { segment } = item;
        // An engine that leaves a segment as it was: the source bytes stay, entity spelling included.
        if (outputs[index] === inputs[index].text && !segment.enforcesTerms) return;
        const last = attempt === ENGINE_ATTEMPTS;
        const restored = segment.restore(outputs[index], last);
        if (last && restored.missingTerms.length > 0) {
          // Term counts only: the message may reach logs, which must not hold customer content.
          throw new EngineError(`Engine ${this.engine.name} dropped ${restored.missingTerms.length} glossary term placeholder(s) twice`);
        }
        if (restored.incomplete && !last) incomplete.push(item);
        else results.set(segment, restored.pieces);
      });
      pending = incomplete;
    }
    return { translations: prepared.documents.map((document, index) => document.render(results, { source: detectedSources[index], target })) };
  }

  /**
   * Each text's language: fixed earlier (a batch fixes them when it is accepted), given, or
   * detected per text. A text too short to tell takes the language detected on all texts together.
   */
  private async languagesOf(request: TranslationRequest, plainTexts: string[], sources: string[]): Promise<string[]> {
    const { source, target } = request;
    if (source && !sources.includes(source)) throw ApiError.invalidParameter(`translation from ${source} to ${target} is not available`);
    let overall: Promise<string | undefined> | undefined;
    return Promise.all(
      plainTexts.map(async (text, index) => {
        const fixed = request.sources?.[index] ?? source;
        if (fixed) return fixed;
        const own = await this.detector.identify(text);
        if (own && own !== target && !sources.includes(own)) {
          throw ApiError.invalidParameter(`texts[${index}] is in ${own}, which cannot be translated to ${target}; see GET /api/v1/languages`);
        }
        const language = own ?? (await (overall ??= this.detector.detect(plainTexts.join('\n'), sources)));
        if (!language) throw ApiError.invalidParameter('could not detect the source language; give `source`');
        return language;
      }),
    );
  }

  private async translate(target: string, inputs: { source: string; text: string }[], hints?: Record<string, string>): Promise<string[]> {
    const outputs: string[] = [];
    for (const source of new Set(inputs.map((input) => input.source))) {
      const indexes = inputs.flatMap((input, index) => (input.source === source ? [index] : []));
      const translated: string[] = [];
      for (const batch of batches(indexes.map((index) => inputs[index].text))) {
        translated.push(...(await this.call({ source, target, segments: batch, hints })));
      }
      indexes.forEach((inputIndex, n) => (outputs[inputIndex] = translated[n]));
    }
    return outputs;
  }

  private async call(request: EngineRequest): Promise<string[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        const outputs = await this.engine.translate(request);
        if (outputs.length !== request.segments.length) {
          throw new EngineError(`Engine ${this.engine.name} returned ${outputs.length} translations for ${request.segments.length} segments`);
        }
        return outputs;
      } catch (error) {
        if (error instanceof UnsupportedPairError) {
          throw ApiError.invalidParameter(`target language ${error.pair.target} is not available for source language ${error.pair.source}`);
        }
        if (!(error instanceof EngineError) || attempt === ENGINE_ATTEMPTS) throw error;
      }
    }
  }
}

function parse(format: TranslationFormat, text: string, index: number, glossary: GlossaryMatcher | undefined): TranslatableDocument {
  switch (format) {
    case 'text':
      return plainTextLayout(text, glossary);
    case 'html':
      return htmlLayout(text, glossary);
    case 'json':
      return new JsonDocument(text, index, glossary);
  }
}

function checkGlossary(glossary: GlossaryTerms, languages: readonly string[], target: string): void {
  if (glossary.target !== target) {
    throw ApiError.invalidParameter(`the glossary's terms are for target language ${glossary.target}, not ${target}`);
  }
  const index = languages.findIndex((language) => language !== glossary.source && language !== target);
  if (index >= 0) {
    const texts = new Set(languages).size === 1 ? 'the texts are' : `texts[${index}] is`;
    throw ApiError.invalidParameter(`the glossary's source language is ${glossary.source}, but ${texts} in ${languages[index]}`);
  }
}

/** The language with the most words; the first text's language when no text has words. */
function mostWords(languages: readonly string[], words: readonly number[]): string {
  const totals = new Map<string, number>();
  languages.forEach((language, index) => totals.set(language, (totals.get(language) ?? 0) + words[index]));
  return [...totals].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
}

/** The glossary entries whose terms occur in the texts: all an engine needs as a hint. */
function hintsFor(glossary: GlossaryTerms, text: string): Record<string, string> | undefined {
  const matches = new GlossaryMatcher(glossary.entries).find(text);
  return matches.length > 0 ? Object.fromEntries(matches.map((match) => [match.term, match.translation])) : undefined;
}

function* batches(segments: string[]): Generator<string[]> {
  let batch: string[] = [];
  let chars = 0;
  for (const segment of segments) {
    if (batch.length > 0 && (batch.length === MAX_SEGMENTS_PER_CALL || chars + segment.length > MAX_CHARS_PER_CALL)) {
      yield batch;
      batch = [];
      chars = 0;
    }
    batch.push(segment);
    chars += segment.length;
  }
  if (batch.length > 0) yield batch;
}
