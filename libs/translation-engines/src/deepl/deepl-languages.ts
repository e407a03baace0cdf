import type { SourceLanguageCode, TargetLanguageCode } from 'deepl-node';

/** DeepL translates into regional English and Portuguese only; EU users get the European variants. */
const REGIONAL_TARGETS: Record<string, TargetLanguageCode> = { en: 'en-GB', pt: 'pt-PT' };

/** DeepL source codes are plain ISO 639-1 codes (the client normalises their case). */
export function deeplSource(code: string): SourceLanguageCode {
  return code as SourceLanguageCode;
}

export function deeplTarget(code: string): TargetLanguageCode {
  return REGIONAL_TARGETS[code] ?? (code as TargetLanguageCode);
}
