/**
 * The 24 official languages of the European Union as ISO 639-1 codes: the whole range the
 * translation service offers. What an engine can do at a given moment is a subset of these.
 */
export const EU_LANGUAGES = [
  'bg', 'cs', 'da', 'de', 'el', 'en', 'es', 'et', 'fi', 'fr', 'ga', 'hr',
  'hu', 'it', 'lt', 'lv', 'mt', 'nl', 'pl', 'pt', 'ro', 'sk', 'sl', 'sv',
] as const;
export type EuLanguage = (typeof EU_LANGUAGES)[number];

const EU_LANGUAGE_SET: ReadonlySet<string> = new Set(EU_LANGUAGES);

export function isEuLanguage(code: unknown): code is EuLanguage {
  return typeof code === 'string' && EU_LANGUAGE_SET.has(code);
}
