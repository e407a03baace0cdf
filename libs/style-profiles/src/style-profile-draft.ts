import { ApiError } from '@platform/errors';
import { DEFAULT_TYPOGRAPHY, TYPOGRAPHY_RULES, type DoNotTranslateTerm, type Formality, type TypographySettings } from '@platform/translation-pipeline';
import type { StyleProfileInputDto } from './dtos/style-profile-input.dto';
import { MAX_DO_NOT_TRANSLATE_TERM_LENGTH, MAX_DO_NOT_TRANSLATE_TERMS } from './style-profile-limits';

/** A checked profile: what is stored, references not yet looked up. */
export interface StyleProfileContent {
  name: string;
  isDefault: boolean;
  doNotTranslate: DoNotTranslateTerm[];
  typography: TypographySettings;
  formality: Formality;
  glossaryId: string | null;
  memoryId: string | null;
  notes: string;
}

const invalid = ApiError.invalidParameter;

/** Postgres text cannot hold NUL, and a term of control characters would match nothing anyone wrote. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/**
 * The rules beyond the DTO's types. The number of terms is checked first, so that an oversized
 * list is refused as too large (413) before anything else, as a glossary's entries are.
 */
export function checkStyleProfile(input: StyleProfileInputDto): StyleProfileContent {
  const terms = input.do_not_translate ?? [];
  if (terms.length > MAX_DO_NOT_TRANSLATE_TERMS) {
    throw ApiError.payloadTooLarge(`do_not_translate has ${terms.length} terms; a profile holds at most ${MAX_DO_NOT_TRANSLATE_TERMS}`);
  }
  const name = input.name.trim().normalize('NFC');
  if (!name || CONTROL.test(name)) throw invalid('name must hold visible characters and no control characters');
  if (input.notes?.includes('\u0000')) throw invalid('notes contain a NUL character (U+0000), which a profile cannot hold');
  return {
    name,
    isDefault: input.default ?? false,
    doNotTranslate: checkTerms(terms),
    typography: checkTypography(input.typography ?? {}),
    formality: input.formality ?? 'default',
    glossaryId: input.glossary ?? null,
    memoryId: input.memory ?? null,
    notes: input.notes ?? '',
  };
}

function checkTerms(items: unknown[]): DoNotTranslateTerm[] {
  const seen = new Map<string, number>();
  return items.map((item, index) => {
    const at = `do_not_translate[${index}]`;
    const { term, caseSensitive } = termOf(item, at);
    if (CONTROL.test(term)) throw invalid(`${at} contains a control character (a NUL, U+0000, among them), which a term cannot hold`);
    // Kept byte for byte: only what surrounds the term is trimmed, its own spelling stays.
    const value = term.trim();
    if (!value) throw invalid(`${at} is empty`);
    if (value.length > MAX_DO_NOT_TRANSLATE_TERM_LENGTH) throw invalid(`${at} is longer than ${MAX_DO_NOT_TRANSLATE_TERM_LENGTH} characters`);
    const key = caseSensitive ? value : value.toLowerCase();
    const earlier = seen.get(`${caseSensitive} ${key}`);
    if (earlier !== undefined) throw invalid(`${at}: the term "${value}" repeats do_not_translate[${earlier}]`);
    seen.set(`${caseSensitive} ${key}`, index);
    return { term: value, caseSensitive };
  });
}

function termOf(item: unknown, at: string): { term: string; caseSensitive: boolean } {
  if (typeof item === 'string') return { term: item, caseSensitive: true };
  if (typeof item !== 'object' || item === null || Array.isArray(item)) throw invalid(`${at} must be a string or {term, case_sensitive}`);
  const { term, case_sensitive: caseSensitive = true, ...rest } = item as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw invalid(`${at} has an unknown field "${unknown}" (allowed: term, case_sensitive)`);
  if (typeof term !== 'string') throw invalid(`${at}.term must be a string`);
  if (typeof caseSensitive !== 'boolean') throw invalid(`${at}.case_sensitive must be true or false`);
  return { term, caseSensitive };
}

function checkTypography(rules: Record<string, unknown>): TypographySettings {
  const settings = { ...DEFAULT_TYPOGRAPHY };
  for (const [rule, on] of Object.entries(rules)) {
    if (!(TYPOGRAPHY_RULES as readonly string[]).includes(rule)) throw invalid(`typography has an unknown rule "${rule}" (rules: ${TYPOGRAPHY_RULES.join(', ')})`);
    if (typeof on !== 'boolean') throw invalid(`typography.${rule} must be true or false`);
    settings[rule as keyof TypographySettings] = on;
  }
  return settings;
}
