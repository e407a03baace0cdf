import { DependencyUnavailableError } from '@platform/errors';

/**
 * What every machine-translation engine offers the pipeline. Engines receive segments that may
 * carry placeholder markup and must give it back unchanged (see `PLACEHOLDER` below); everything
 * else about formats, variables, glossaries and counting is the pipeline's business.
 */
export interface LanguagePair {
  source: string;
  target: string;
  /**
   * Set when the engine does the pair in two steps through this language (Apertium's pivot);
   * routing prefers any engine that does the pair directly.
   */
  via?: string;
}

export interface EngineRequest {
  /** ISO 639-1 codes. */
  source: string;
  target: string;
  /** Segments in order; the result has the same length and order. */
  segments: string[];
  /** Terms the engine should prefer (tier basic: a hint, never enforced). Engines may ignore it. */
  hints?: Record<string, string>;
  /** A more or less formal register, for engines that can be told (see `appliesFormality`). */
  formality?: 'more' | 'less';
}

export interface TranslationEngine {
  /** Engine name as configured (`apertium`, `deepl`, `libretranslate`). */
  readonly name: string;
  /** Language pairs this engine can translate right now (after pivoting, where it pivots). */
  pairs(): Promise<LanguagePair[]>;
  translate(request: EngineRequest): Promise<string[]>;
  /**
   * Whether the engine applies a request's formality for this target language (asked after a
   * call for it succeeded); an engine without it never does, and the caller is told so.
   */
  appliesFormality?(target: string): boolean;
}

/**
 * Placeholder markup inside segments: `<x id="N"/>` stands for something the engine must not
 * touch (a variable, a protected term, an untranslatable element), `<g id="N">...</g>` wraps
 * translatable text whose surrounding inline markup must follow it (e.g. `<b>`). Engines pass
 * both through as markup (Apertium superblanks, DeepL/LibreTranslate tag handling).
 */
export const PLACEHOLDER = {
  empty: (id: number) => `<x id="${id}"/>`,
  open: (id: number) => `<g id="${id}">`,
  close: '</g>',
} as const;

/**
 * A failure of the engine itself (not of the input); the pipeline retries or fails the job, and
 * an API request that meets it answers 503.
 */
export class EngineError extends DependencyUnavailableError {
  constructor(message: string) {
    super('the translation engine', message);
  }
}

/** The requested pair is not available in this engine: a client error (422). */
export class UnsupportedPairError extends Error {
  constructor(readonly pair: LanguagePair) {
    super(`Translation from ${pair.source} to ${pair.target} is not available`);
  }
}
