import type { TranslationStyle } from '@platform/translation-pipeline';

/**
 * A profile as a request applies it: what the pipeline needs, and what the response and the
 * reviewers are told. Batches keep it as it was at submission.
 */
export interface AppliedStyleProfile extends TranslationStyle {
  id: string;
  name: string;
  glossary: string | null;
  memory: string | null;
  notes: string;
}

/** What a translation request says about style and its defaults. */
export interface StyleRequest {
  target: string;
  /** A profile's id; `none` for no profile, not even the mode's default. */
  style_profile?: string;
  glossary?: string;
  memories?: string[];
}

/** A value of `style_profile` that asks for no profile at all. */
export const NO_STYLE_PROFILE = 'none';
