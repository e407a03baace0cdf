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
    const { glossary, tier } = request;
    const enforced = glossary && tier !== 'basic' ? new GlossaryMatcher(glossary.entries) : undefined;
    const documents = request.texts.map((text, index) => parse(request.format, text, index, enforced));
    const plainText = documents.flatMap((document) => document.segments.map((segment) => segment.plainText)).join('\n');

    // Checked before anything is charged: the pairs decide which sources are possible at all.
    const sources = (await this.engine.pairs()).filter((pair) => pair.target === request.target).map((pair) => pair.source);
    if (sources.length === 0) throw ApiError.invalidParameter(`target language ${request.target} is not available; see GET /api/v1/languages`);
    const source = request.source ?? (await this.detector.detect(plainText, sources));
    if (!source) throw ApiError.invalidParameter('could not detect the source language; give `source`');
    if (!sources.includes(source)) throw ApiError.invalidParameter(`translation from ${source} to ${request.target} is not available`);
    if (glossary) checkGlossary(glossary, source, request.target);

    const wordsPerText = documents.map((document) => document.segments.reduce((sum, segment) => sum + segment.words, 0));
    const words = wordsPerText.reduce((sum, count) => sum + count, 0);
    return {
      detectedSource: source,
      target: request.target,
      format: request.format,
      tier,
      words,
      wordsPerText,
      costCents: costCents(this.pricing, tier, words),
      documents,
      hints: glossary && tier === 'basic' ? hintsFor(glossary, plainText) : undefined,
    };
  }

  /**
   * Translates a prepared request. Throws `ApiError` (422) when the engine cannot do the pair,
   * `EngineError` when the engine keeps failing or keeps dropping a glossary term.
   */
  async run(prepared: PreparedTranslation): Promise<{ translations: string[] }> {
    const results = new Map<Segment, Piece[]>();
    let pending = prepared.documents.flatMap((document) => document.segments);
    for (let attempt = 1; pending.length > 0; attempt++) {
      const inputs = pending.map((segment) => segment.toEngine());
      const outputs = await this.translate(prepared, inputs);
      const incomplete: Segment[] = [];
      pending.forEach((segment, index) => {
        // An engine that leaves a segment as it was: the source bytes stay, entity spelling included.
        if (outputs[index] === inputs[index] && !segment.enforcesTerms) return;
        const last = attempt === ENGINE_ATTEMPTS;
        const restored = segment.restore(outputs[index], last);
        if (last && restored.missingTerms.length > 0) {
          // Term counts only: the message may reach logs, which must not hold customer content.
          throw new EngineError(`Engine ${this.engine.name} dropped ${restored.missingTerms.length} glossary term placeholder(s) twice`);
        }
        if (restored.incomplete && !last) incomplete.push(segment);
        else results.set(segment, restored.pieces);
      });
      pending = incomplete;
    }
    return { translations: prepared.documents.map((document) => document.render(results, { source: prepared.detectedSource, target: prepared.target })) };
  }

  private async translate(prepared: PreparedTranslation, segments: string[]): Promise<string[]> {
    const outputs: string[] = [];
    for (const batch of batches(segments)) {
      outputs.push(...(await this.call({ source: prepared.detectedSource, target: prepared.target, segments: batch, hints: prepared.hints })));
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

function checkGlossary(glossary: GlossaryTerms, source: string, target: string): void {
  if (glossary.source !== source) {
    throw ApiError.invalidParameter(`the glossary's source language is ${glossary.source}, but the texts are in ${source}`);
  }
  if (glossary.target !== target) {
    throw ApiError.invalidParameter(`the glossary's terms are for target language ${glossary.target}, not ${target}`);
  }
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
