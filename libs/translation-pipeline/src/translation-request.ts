import type { InlineSentence } from './formats/inline-sentence';
import type { TranslatableDocument } from './formats/translatable-document';
import type { GlossaryTerms } from './glossary/glossary-terms';
import type { FormalityOutcome, TranslationStyle } from './style/translation-style';
import type { Typography } from './style/typography';

export const TRANSLATION_FORMATS = ['text', 'html', 'json'] as const;
export type TranslationFormat = (typeof TRANSLATION_FORMATS)[number];

export const TRANSLATION_TIERS = ['basic', 'pro', 'review'] as const;
export type TranslationTier = (typeof TRANSLATION_TIERS)[number];

/** What becomes of text no engine can translate: `keep` gives it back as sent (and bills none of it). */
export const MISSING_HANDLINGS = ['keep'] as const;
export type MissingHandling = (typeof MISSING_HANDLINGS)[number];

/**
 * Where a text's translation came from: the account's memory, the catalog, an engine; `none`
 * when nothing of it was translated (kept as sent, already in the target language, no words).
 */
export const TRANSLATION_ORIGINS = ['memory', 'catalog', 'engine', 'none'] as const;
export type TranslationOrigin = (typeof TRANSLATION_ORIGINS)[number];

/** The origins of a stored translation. */
export type StoredOrigin = Extract<TranslationOrigin, 'memory' | 'catalog'>;

export interface TranslationRequest {
  texts: string[];
  /** ISO 639-1; detected from the texts when absent. */
  source?: string;
  /** Each text's language, fixed earlier (a batch fixes them when it is accepted); wins over `source` and detection. */
  sources?: readonly (string | undefined)[];
  target: string;
  format: TranslationFormat;
  tier: TranslationTier;
  glossary?: GlossaryTerms;
  /** Format `html`: translate the text attributes (`alt`, `title`...); default true. */
  htmlAttributes?: boolean;
  /** Format `html`: elements whose content is kept as sent, like `translate="no"` (DeepL's `ignore_tags`). */
  ignoreTags?: readonly string[];
  /** `keep`: a text whose pair no engine does is accepted; what no memory translates stays as sent. */
  missing?: MissingHandling;
  /** A style profile's terms never to translate, typography and formality. */
  style?: TranslationStyle;
}

/** A sentence of a prepared text: what a memory is asked about it. */
export interface PreparedSentence {
  /** The index of its text. */
  readonly text: number;
  /** Its text's language. */
  readonly source: string;
  /** The masked form memories key it by (see Segment.memoryForm). */
  readonly masked: string;
  readonly words: number;
  /** Whether it is all of its text or JSON string value and short: what the catalog may answer. */
  readonly whole: boolean;
  /** In a JSON text, the JSON Pointer of its string value; '' elsewhere. */
  readonly path: string;
  readonly sentence: InlineSentence;
}

/** A translation a memory holds for a sentence's masked form, in that sentence's placeholder ids. */
export interface StoredTranslation {
  target: string;
  origin: StoredOrigin;
}

/** What becomes of one sentence: a stored translation, the engine's, or its source kept as sent. */
export type SentencePlan = StoredTranslation | 'engine' | 'keep';

/** Who translates each sentence of a prepared request, and what that bills. */
export interface TranslationPlan {
  /** One per prepared sentence, in order. */
  readonly sentences: readonly SentencePlan[];
  /** The words billed: those of the sentences translated (stored or by an engine). */
  readonly words: number;
  readonly wordsPerText: readonly number[];
  readonly costCents: number;
  /** Per text, the origin of most of its translated words (see TRANSLATION_ORIGINS). */
  readonly origins: readonly TranslationOrigin[];
  /** Per text, where it stays untranslated: the JSON Pointers of its string values in JSON, '' for the text elsewhere; empty when all of it is translated. */
  readonly untranslated: readonly (readonly string[])[];
}

/** A request checked, segmented, counted and priced: everything but the engine's work. */
export interface PreparedTranslation {
  /** The given source, or the language of most words among the texts. */
  readonly detectedSource: string;
  /** Each text's language; a text already in the target language is given back as it is, free. */
  readonly detectedSources: readonly string[];
  readonly target: string;
  readonly format: TranslationFormat;
  readonly tier: TranslationTier;
  readonly words: number;
  readonly wordsPerText: readonly number[];
  readonly costCents: number;
  readonly documents: readonly TranslatableDocument[];
  /** Glossary terms found in the texts, as hints for engines (tier basic). */
  readonly hints?: Record<string, string>;
  /** Per text, whether an engine does its pair; false only where `missing` is `keep`. */
  readonly engineAvailable: readonly boolean[];
  readonly missing?: MissingHandling;
  /** Every sentence with words of every text not already in the target language, in order. */
  readonly sentences: readonly PreparedSentence[];
  /** The style's typography for the target, when a rule that is on applies to it: set on what engines translate. */
  readonly typography?: Typography;
  /** The style's formality, when it asks for one: passed to engines. */
  readonly formality?: Exclude<TranslationStyle['formality'], 'default'>;
}

/** What `run` made of a prepared request. */
export interface TranslationRun {
  translations: string[];
  /** What translated, in order of first use: `memory`, `catalog` and the engines. */
  engines: string[];
  /** With a formality asked for: which engines that translated applied it, and which could not. */
  formality?: FormalityOutcome;
}
