import type { TranslatableDocument } from './formats/translatable-document';
import type { GlossaryTerms } from './glossary/glossary-terms';

export const TRANSLATION_FORMATS = ['text', 'html', 'json'] as const;
export type TranslationFormat = (typeof TRANSLATION_FORMATS)[number];

export const TRANSLATION_TIERS = ['basic', 'pro', 'review'] as const;
export type TranslationTier = (typeof TRANSLATION_TIERS)[number];

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
}
