import { isEuLanguage } from '@platform/contracts';
import { ApiError } from '@platform/errors';

/**
 * DeepL names English and Portuguese targets by variant. Our engines write one English and one
 * Portuguese, so every variant (and DeepL's older bare `EN`, `PT`) means the same language; the
 * languages list offers the EU variants, EN-GB and PT-PT.
 */
const VARIANTS: Record<string, string> = { 'EN-GB': 'en', 'EN-US': 'en', 'PT-PT': 'pt', 'PT-BR': 'pt' };
const LISTED_VARIANT: Record<string, string> = { en: 'EN-GB', pt: 'PT-PT' };

/** Our ISO 639-1 code of a DeepL language code (any case), or a 400 naming the parameter. */
export function fromDeepLCode(parameter: 'source_lang' | 'target_lang', code: string): string {
  const upper = code.toUpperCase();
  const language = VARIANTS[upper] ?? upper.toLowerCase();
  if (!isEuLanguage(language) || (parameter === 'source_lang' && upper in VARIANTS)) {
    throw ApiError.invalidParameter(`Value for '${parameter}' not supported: ${code}`);
  }
  return language;
}

/** DeepL's code for one of our languages: upper case, as a source; with the EU variant as a target. */
export function toDeepLCode(language: string, as: 'source' | 'target' = 'source'): string {
  return (as === 'target' && LISTED_VARIANT[language]) || language.toUpperCase();
}
