import { Injectable, Optional } from '@nestjs/common';
import { EU_LANGUAGES, isEuLanguage } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { MetricsRegistry } from '@platform/service-kit';
import { EngineError, EngineRouter, UnsupportedPairError, type EngineRequest, type RoutedTranslation } from '@platform/translation-engines';
import type { Counter } from 'prom-client';
import { LanguageDetector } from './detection/language-detector';
import { htmlLayout } from './formats/html.format';
import { JsonDocument } from './formats/json.format';
import { plainTextLayout } from './formats/plain-text.format';
import { SegmentResults, type TranslatableDocument } from './formats/translatable-document';
import { GlossaryMatcher } from './glossary/glossary-matcher';
import type { GlossaryTerms } from './glossary/glossary-terms';
import { costCents, PricingConfig } from './pricing/pricing.config';
import { DoNotTranslateMatcher } from './segments/do-not-translate';
import { escapeForEngine, type Segment, type SegmentTerms, type TermHandling } from './segments/segment';
import { Typography } from './style/typography';
import type {
  PreparedSentence,
  PreparedTranslation,
  SentencePlan,
  StoredTranslation,
  TranslationOrigin,
  TranslationPlan,
  TranslationRequest,
  TranslationRun,
} from './translation-request';

/** Segments per engine call and characters per call (a longer single segment goes alone). */
const MAX_SEGMENTS_PER_CALL = 50;
const MAX_CHARS_PER_CALL = 5_000;
/**
 * Engine calls one run keeps in flight: a warm Apertium pipeline is a dozen processes in a row,
 * and a call sent only once the one before it is answered would find most of them idle.
 */
const ENGINE_CALLS_IN_FLIGHT = 4;
/** A failed engine call, and a segment that came back without all its placeholders, get one more try. */
const ENGINE_ATTEMPTS = 2;
/** A whole text or JSON value of at most this many words is an interface string, which the catalog may answer. */
export const SHORT_TEXT_WORDS = 12;
/** Of origins with as many words in a text, the first listed names it. */
const ORIGIN_PRECEDENCE: TranslationOrigin[] = ['memory', 'catalog', 'engine'];

interface PendingSegment {
  segment: Segment;
  source: string;
  terms: TermHandling['kind'];
  /** Tries so far with terms protected; the in-place try does not count. */
  tries: number;
}

/**
 * Turns translate requests into engine work and back: `prepare` validates, segments, counts
 * and prices without calling the engine (so quota can be charged first), `run` translates.
 */
@Injectable()
export class TranslationPipeline {
  private readonly words?: Counter<string>;

  constructor(
    private readonly engine: EngineRouter,
    private readonly pricing: PricingConfig,
    private readonly detector: LanguageDetector,
    @Optional() metrics?: MetricsRegistry,
  ) {
    this.words = metrics?.counter('translation_words_total', 'Source words translated, by what translated them (an engine, memory or catalog) and language pair', ['engine', 'source', 'target']);
  }

  /**
   * Throws `ApiError` (422) for input that cannot be translated as asked. With `missing: "keep"`
   * a pair no engine does is accepted among the 24 EU languages (what no memory answers stays as sent).
   */
  async prepare(request: TranslationRequest): Promise<PreparedTranslation> {
    const { glossary, tier, target } = request;
    const keep = request.missing === 'keep';
    const { style } = request;
    const terms: SegmentTerms = {
      glossary: glossary && tier !== 'basic' ? new GlossaryMatcher(glossary.entries) : undefined,
      doNotTranslate: style && style.doNotTranslate.length > 0 ? new DoNotTranslateMatcher(style.doNotTranslate) : undefined,
    };
    const documents = request.texts.map((text, index) => parse(request, text, index, terms));
    const plainTexts = documents.map((document) => document.segments.map((segment) => segment.plainText).join('\n'));

    // Checked before anything is charged: the pairs decide which sources are possible at all.
    const engineSources = (await this.engine.pairs()).filter((pair) => pair.target === target).map((pair) => pair.source);
    if (keep && !isEuLanguage(target)) throw ApiError.invalidParameter(`target language ${target} is not one of the 24 official EU languages`);
    if (!keep && engineSources.length === 0) throw ApiError.invalidParameter(`target language ${target} is not available; see GET /api/v1/languages`);
    const sources = keep ? EU_LANGUAGES.filter((language) => language !== target) : engineSources;
    const languages = await this.languagesOf(request, plainTexts, sources);
    if (glossary) checkGlossary(glossary, languages, target);

    const textWords = documents.map((document) => document.words);
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
      engineAvailable: languages.map((language) => language === target || engineSources.includes(language)),
      missing: request.missing,
      typography: style && Typography.for(target, style.typography),
      formality: style && style.formality !== 'default' ? style.formality : undefined,
      sentences: documents.flatMap((document, text) =>
        languages[text] === target
          ? []
          : document.sentences.map(({ sentence, path, whole }): PreparedSentence => {
              const { words } = sentence.main;
              return { text, source: languages[text], masked: sentence.main.memoryForm(), words, whole: whole && words <= SHORT_TEXT_WORDS, path, sentence };
            }),
      ),
    };
  }

  /**
   * Decides each sentence: a stored translation (`stored`, one per prepared sentence, undefined
   * where there is none) when it fits the sentence (all its placeholders, and where glossary
   * terms are enforced, every term's target); `keep` where it says so; else the engine, or for
   * a pair without one (only accepted with `missing: "keep"`) the source as sent. Bills the words
   * of what is translated.
   */
  plan(prepared: PreparedTranslation, stored: readonly (StoredTranslation | 'keep' | undefined)[] = []): TranslationPlan {
    const sentences = prepared.sentences.map(({ sentence, text }, index): SentencePlan => {
      const found = stored[index];
      if (found === 'keep') return 'keep';
      if (found && sentence.main.restoreStored(found.target)) return found;
      return prepared.engineAvailable[text] ? 'engine' : 'keep';
    });
    const texts = prepared.documents.map(() => ({ kept: 0, origins: new Map<TranslationOrigin, number>(), untranslated: new Set<string>() }));
    prepared.sentences.forEach(({ text, words, path }, index) => {
      const decision = sentences[index];
      const tally = texts[text];
      if (decision === 'keep') {
        tally.kept += words;
        tally.untranslated.add(path);
      } else {
        const origin = decision === 'engine' ? 'engine' : decision.origin;
        tally.origins.set(origin, (tally.origins.get(origin) ?? 0) + words);
      }
    });
    // A text none of whose sentences is translated bills nothing, whatever its markup holds.
    const wordsPerText = prepared.wordsPerText.map((words, text) => (texts[text].origins.size === 0 ? 0 : Math.max(0, words - texts[text].kept)));
    const words = wordsPerText.reduce((sum, count) => sum + count, 0);
    return {
      sentences,
      words,
      wordsPerText,
      costCents: costCents(this.pricing, prepared.tier, words),
      origins: texts.map(({ origins }) => dominant(origins)),
      untranslated: texts.map(({ untranslated }) => [...untranslated]),
    };
  }

  /**
   * Translates a prepared request as `plan` decides (by default: every sentence by the engine)
   * and names what translated, in the order first used: `memory` and `catalog` for stored
   * translations, then the engines; with a formality, which engines applied it. Throws
   * `ApiError` (422) when no engine can do the pair, `EngineError` when every engine able to do
   * it keeps failing or keeps dropping a glossary term.
   */
  async run(prepared: PreparedTranslation, plan: TranslationPlan = this.plan(prepared)): Promise<TranslationRun> {
    const { detectedSources, target, typography, formality } = prepared;
    const formalityBy = new Map<string, boolean>();
    const results = new SegmentResults();
    const madeBy = new Map<Segment, { engine: string; source: string }>();
    const toEngine: PreparedSentence[] = [];
    prepared.sentences.forEach((item, index) => {
      const decision = plan.sentences[index];
      if (decision === 'keep') return;
      const { main } = item.sentence;
      const pieces = decision === 'engine' ? undefined : main.restoreStored(decision.target, typography);
      if (decision === 'engine' || !pieces) {
        toEngine.push(item);
        return;
      }
      results.set(main, pieces);
      results.stored.add(main);
      madeBy.set(main, { engine: decision.origin, source: item.source });
    });
    // Glossary terms first go through as words, so the engine places and inflects them, and the
    // engine's rendering of each term (translated alone, in the same call) is then replaced by the
    // target term. A segment where that fails goes again with its terms protected as placeholders.
    let pending: PendingSegment[] = toEngine.flatMap(({ sentence, source }) =>
      sentence.ownSegments.map((segment) => ({ segment, source, terms: segment.enforcesTerms ? 'in-place' : 'protected', tries: 0 }) as const),
    );
    while (pending.length > 0) {
      const inputs = pending.map(({ segment, source, terms }) => ({ source, text: segment.toEngine(terms) }));
      const alone = termsAlone(pending);
      const { outputs, engines } = await this.translate(
        { target, hints: prepared.hints, formality },
        [...inputs, ...alone.map(({ source, term }) => ({ source, text: escapeForEngine(term) }))],
        formalityBy,
      );
      const renderings = new Map(detectedSources.map((source) => [source, new Map<string, string>()]));
      alone.forEach(({ source, term }, index) => renderings.get(source)!.set(term, outputs[inputs.length + index]));
      const retry: PendingSegment[] = [];
      pending.forEach(({ segment, source, terms, tries }, index) => {
        madeBy.set(segment, { engine: engines[index], source });
        // An engine that leaves a segment as it was: the source bytes stay, entity spelling included.
        if (outputs[index] === inputs[index].text && !segment.enforcesTerms) return;
        const inPlace = terms === 'in-place';
        const last = !inPlace && tries + 1 === ENGINE_ATTEMPTS;
        const restored = segment.restore(outputs[index], inPlace ? { kind: 'in-place', renderings: renderings.get(source)! } : { kind: 'protected' }, last, typography);
        if (last && restored.missingTerms.length > 0) {
          // Term counts only: the message may reach logs, which must not hold customer content.
          throw new EngineError(`Engine ${engines[index]} dropped ${restored.missingTerms.length} glossary term placeholder(s) twice`);
        }
        if (restored.incomplete && !last) retry.push({ segment, source, terms: 'protected', tries: inPlace ? 0 : tries + 1 });
        else results.set(segment, restored.pieces);
      });
      pending = retry;
    }
    const translations = prepared.documents.map((document, index) => document.render(results, { source: detectedSources[index], target }));
    const engines = this.countWords(target, madeBy);
    if (!formality) return { translations, engines };
    const by = (applied: boolean) => [...formalityBy].flatMap(([engine, did]) => (did === applied ? [engine] : []));
    return { translations, engines, formality: { appliedBy: by(true), ignoredBy: by(false) } };
  }

  /** Adds each engine's words per pair to `translation_words_total` and gives the engines in order of first use. */
  private countWords(target: string, madeBy: Map<Segment, { engine: string; source: string }>): string[] {
    const words = new Map<string, { engine: string; source: string; count: number }>();
    for (const [segment, { engine, source }] of madeBy) {
      const key = `${engine} ${source}`;
      const entry = words.get(key) ?? { engine, source, count: 0 };
      entry.count += segment.words;
      words.set(key, entry);
    }
    for (const { engine, source, count } of words.values()) this.words?.inc({ engine, source, target }, count);
    return [...new Set([...words.values()].map(({ engine }) => engine))];
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

  /**
   * The outputs in input order, and for each the engine that made it; one engine call per source
   * language and batch, up to ENGINE_CALLS_IN_FLIGHT at once. With a formality, `formalityBy`
   * learns per engine whether it applied it (an engine that did not on one call did not).
   */
  private async translate(
    { target, hints, formality }: Pick<EngineRequest, 'target' | 'hints' | 'formality'>,
    inputs: { source: string; text: string }[],
    formalityBy: Map<string, boolean>,
  ): Promise<{ outputs: string[]; engines: string[] }> {
    const outputs: string[] = [];
    const engines: string[] = [];
    const calls = [...new Set(inputs.map((input) => input.source))].flatMap((source) => {
      const indexes = inputs.flatMap((input, index) => (input.source === source ? [index] : []));
      return [...batches(indexes, (index) => inputs[index].text.length)].map((batch) => ({ source, batch }));
    });
    let next = 0;
    const worker = async () => {
      while (next < calls.length) {
        const { source, batch } = calls[next++];
        const routed = await this.call({ source, target, segments: batch.map((index) => inputs[index].text), hints, formality }).catch((error: unknown) => {
          next = calls.length; // the run fails as a whole: no further calls
          throw error;
        });
        if (formality) formalityBy.set(routed.engine, (formalityBy.get(routed.engine) ?? true) && routed.formalityApplied === true);
        routed.segments.forEach((output, n) => {
          outputs[batch[n]] = output;
          engines[batch[n]] = routed.engine;
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(ENGINE_CALLS_IN_FLIGHT, calls.length) }, worker));
    return { outputs, engines };
  }

  private async call(request: EngineRequest): Promise<RoutedTranslation> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.engine.translate(request);
      } catch (error) {
        if (error instanceof UnsupportedPairError) {
          throw ApiError.invalidParameter(`target language ${error.pair.target} is not available for source language ${error.pair.source}`);
        }
        if (!(error instanceof EngineError) || attempt === ENGINE_ATTEMPTS) throw error;
      }
    }
  }
}

function parse(request: TranslationRequest, text: string, index: number, terms: SegmentTerms): TranslatableDocument {
  switch (request.format) {
    case 'text':
      return plainTextLayout(text, terms);
    case 'html':
      return htmlLayout(text, { terms, attributes: request.htmlAttributes, ignoreTags: request.ignoreTags });
    case 'json':
      return new JsonDocument(text, index, terms);
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

/** The origin of most words; `none` when nothing was translated. */
function dominant(words: ReadonlyMap<TranslationOrigin, number>): TranslationOrigin {
  let best: TranslationOrigin = 'none';
  for (const origin of ORIGIN_PRECEDENCE) if ((words.get(origin) ?? 0) > (words.get(best) ?? 0)) best = origin;
  return best;
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

/** The glossary terms of the segments sent with terms in place, each once per source language. */
function termsAlone(pending: PendingSegment[]): { source: string; term: string }[] {
  const seen = new Map<string, { source: string; term: string }>();
  for (const { segment, source, terms } of pending) {
    if (terms !== 'in-place') continue;
    for (const term of segment.terms) seen.set(`${source}\n${term}`, { source, term });
  }
  return [...seen.values()];
}

/** `items` in order, cut into engine calls of at most MAX_SEGMENTS_PER_CALL and MAX_CHARS_PER_CALL (by `length`). */
function* batches<T>(items: T[], length: (item: T) => number): Generator<T[]> {
  let batch: T[] = [];
  let chars = 0;
  for (const item of items) {
    const size = length(item);
    if (batch.length > 0 && (batch.length === MAX_SEGMENTS_PER_CALL || chars + size > MAX_CHARS_PER_CALL)) {
      yield batch;
      batch = [];
      chars = 0;
    }
    batch.push(item);
    chars += size;
  }
  if (batch.length > 0) yield batch;
}
