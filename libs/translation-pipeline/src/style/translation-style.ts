/**
 * How a customer wants translations written, as a style profile hands it to the pipeline: terms
 * never to translate, typography rules and formality.
 */

/** `default` asks nothing; `more` and `less` are passed to engines that can be told (DeepL's `formality`). */
export const FORMALITIES = ['default', 'more', 'less'] as const;
export type Formality = (typeof FORMALITIES)[number];

/**
 * Typography rules, each applied only to target languages with that convention:
 * - `quotes`: straight and English quotes become the language's (« » in fr, es, it, pt; „ “ in de, cs, sk; „ ” in pl);
 * - `french_spacing`: a narrow no-break space (U+202F) before ; : ! ? and inside « » (fr);
 * - `inverted_marks`: an opening ¡ or ¿ for a sentence that ends in ! or ? without one (es);
 * - `apostrophe`: ' between letters becomes ’ (en, fr, it, de, nl, pt, ga, mt).
 */
export const TYPOGRAPHY_RULES = ['quotes', 'french_spacing', 'inverted_marks', 'apostrophe'] as const;
export type TypographyRule = (typeof TYPOGRAPHY_RULES)[number];
export type TypographySettings = Record<TypographyRule, boolean>;

/** Every rule off: a request's formality without a profile's typography (DeepL's `formality`). */
export const NO_TYPOGRAPHY: Readonly<TypographySettings> = Object.freeze({ quotes: false, french_spacing: false, inverted_marks: false, apostrophe: false });

/** Every rule on: a rule does nothing for a language without its convention. */
export const DEFAULT_TYPOGRAPHY: Readonly<TypographySettings> = Object.freeze({ quotes: true, french_spacing: true, inverted_marks: true, apostrophe: true });

export interface DoNotTranslateTerm {
  term: string;
  /** False: any spelling of its letters' case matches (`windows` for `Windows`). */
  caseSensitive: boolean;
}

export interface TranslationStyle {
  /** Kept byte for byte wherever they occur as whole words, like variables: not translated, not counted. */
  doNotTranslate: readonly DoNotTranslateTerm[];
  typography: Readonly<TypographySettings>;
  formality: Formality;
}

/** Which engines applied a requested formality to what they translated, and which could not. */
export interface FormalityOutcome {
  appliedBy: string[];
  ignoredBy: string[];
}
