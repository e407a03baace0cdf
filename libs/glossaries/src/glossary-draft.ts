import { EU_LANGUAGES, isEuLanguage } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import type { GlossaryEntry } from './glossary.entity';
import { MAX_GLOSSARY_ENTRIES, MAX_GLOSSARY_NAME_LENGTH, MAX_TERM_LENGTH } from './glossary-limits';

/** An entry as uploaded; `at` says where it came from ("line 4", "entries[3]") for error messages. */
export interface DraftEntry extends GlossaryEntry {
  at: string;
}

/** A glossary as uploaded (JSON or CSV), not yet checked. */
export interface GlossaryDraft {
  name: string;
  source: string;
  entries: DraftEntry[];
}

/** A checked glossary: what is stored. Text is trimmed and in Unicode NFC, targets are sorted. */
export interface GlossaryContent {
  name: string;
  source: string;
  targets: string[];
  entries: GlossaryEntry[];
}

const invalid = ApiError.invalidParameter;

export function notAnEuLanguage(what: string, code: string): string {
  return `${what} "${code}" is not one of the 24 official EU languages (${EU_LANGUAGES.join(', ')})`;
}

/** Trimmed and composed; NUL is refused because no Postgres text can hold it. */
function clean(at: string, text: string): string {
  if (text.includes('\u0000')) throw invalid(`${at} contains a NUL character (U+0000), which a glossary cannot hold`);
  return text.trim().normalize('NFC');
}

function checkedText(at: string, what: string, text: string): string {
  const value = clean(at, text);
  if (!value) throw invalid(`${at}: the ${what} is empty`);
  if (value.length > MAX_TERM_LENGTH) throw invalid(`${at}: the ${what} is longer than ${MAX_TERM_LENGTH} characters`);
  return value;
}

/**
 * Applies the rules every glossary obeys, however it was uploaded. The entry count is checked
 * first so that an oversized upload is refused as too large (413) before anything else.
 */
export function checkGlossary(draft: GlossaryDraft): GlossaryContent {
  if (draft.entries.length > MAX_GLOSSARY_ENTRIES) {
    throw ApiError.payloadTooLarge(`The glossary has ${draft.entries.length} entries; a glossary holds at most ${MAX_GLOSSARY_ENTRIES}`);
  }
  const name = clean('name', draft.name);
  if (!name || name.length > MAX_GLOSSARY_NAME_LENGTH) throw invalid(`name must be 1 to ${MAX_GLOSSARY_NAME_LENGTH} characters`);
  const source = draft.source;
  if (!isEuLanguage(source)) throw invalid(notAnEuLanguage('source', source));
  if (draft.entries.length === 0) throw invalid('A glossary needs at least one entry');

  const firstSeen = new Map<string, string>();
  const targets = new Set<string>();
  const entries = draft.entries.map(({ at, term: rawTerm, translations: raw }) => {
    const term = checkedText(at, 'term', rawTerm);
    // Terms match case-insensitively in translation, so two spellings of one term would compete.
    const folded = term.toLocaleLowerCase(source);
    const earlier = firstSeen.get(folded);
    if (earlier) throw invalid(`${at}: the term "${term}" repeats ${earlier} (terms are compared case-insensitively)`);
    firstSeen.set(folded, at);

    const translations: Record<string, string> = {};
    for (const language of Object.keys(raw).sort()) {
      if (!isEuLanguage(language)) throw invalid(`${at}: ${notAnEuLanguage('translation language', language)}`);
      if (language === source) throw invalid(`${at}: "${language}" is the source language of the glossary, not a target`);
      translations[language] = checkedText(at, `${language} translation`, raw[language]);
      targets.add(language);
    }
    if (Object.keys(translations).length === 0) throw invalid(`${at}: the term "${term}" has no translation`);
    return { term, translations };
  });
  return { name, source, targets: [...targets].sort(), entries };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectWith(value: unknown, path: string, fields: string[]): Record<string, unknown> {
  if (!isPlainObject(value)) throw invalid(`${path} must be an object`);
  const unknown = Object.keys(value).find((field) => !fields.includes(field));
  if (unknown !== undefined) throw invalid(`${path} has an unknown field "${unknown}" (allowed: ${fields.join(', ')})`);
  return value;
}

function stringAt(value: unknown, path: string): string {
  if (typeof value !== 'string') throw invalid(`${path} must be a string`);
  return value;
}

/** Reads `{name, source, entries: [{term, translations: {de: "..."}}]}`; types only, rules come after. */
export function glossaryFromJson(body: unknown): GlossaryDraft {
  const root = objectWith(body, 'The request body', ['name', 'source', 'entries']);
  if (!Array.isArray(root.entries)) throw invalid('entries must be an array of {term, translations}');
  return {
    name: stringAt(root.name, 'name'),
    source: stringAt(root.source, 'source'),
    entries: root.entries.map((item, index) => {
      const at = `entries[${index}]`;
      const entry = objectWith(item, at, ['term', 'translations']);
      const translations = entry.translations;
      if (!isPlainObject(translations)) throw invalid(`${at}.translations must be an object of language code to translation`);
      return {
        at,
        term: stringAt(entry.term, `${at}.term`),
        translations: Object.fromEntries(Object.entries(translations).map(([language, text]) => [language, stringAt(text, `${at}.translations.${language}`)])),
      };
    }),
  };
}
