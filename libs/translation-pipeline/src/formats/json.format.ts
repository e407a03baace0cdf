import { ApiError } from '@platform/errors';
import type { GlossaryMatcher } from '../glossary/glossary-matcher';
import { plainTextLayout } from './plain-text.format';
import type { DocumentLanguages, Layout, SegmentResults, TranslatableDocument } from './translatable-document';

/** Keys at the top of an object document whose value names the document's language. */
const LOCALE_KEYS = new Set(['@@locale', 'locale']);
/** A language tag as locale files write it: `en`, `EN`, `en_US`, `en-GB`, `zh-Hant-TW`. */
const LANGUAGE_TAG = /^([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{1,8})*$/;

type Item = string | { value: Layout; raw: string } | { locale: string; raw: string };

/**
 * JSON: only string values are translated, each like a plain text. The document is not
 * re-serialised: translated values are written into the original bytes, so keys, numbers
 * (`1.0`, big integers), key order (including integer-like keys, which `JSON.parse` would move
 * to the front), whitespace and untranslated strings (with their escapes) stay exactly as sent.
 *
 * Locale files' habits: everything under a key starting with `@` (ARB metadata such as
 * `"@title": {"description": ...}`, and `@@locale`) is neither translated nor counted, and a
 * language tag under `@@locale` or `locale` at the top of an object document is never translated;
 * naming the source language, it becomes the target's code.
 */
export class JsonDocument implements TranslatableDocument {
  readonly segments;
  readonly words: number;
  private readonly items: Item[] = [];

  constructor(json: string, index: number, glossary?: GlossaryMatcher) {
    try {
      JSON.parse(json);
    } catch (error) {
      throw ApiError.invalidParameter(`texts[${index}] is not valid JSON: ${(error as Error).message}`);
    }
    let cursor = 0;
    for (const token of stringValues(json)) {
      const raw = json.slice(token.start, token.end);
      const text = JSON.parse(raw) as string;
      const locale = token.localeKey ? LANGUAGE_TAG.exec(text)?.[1] : undefined;
      if (token.metadata && !locale) continue;
      this.items.push(json.slice(cursor, token.start), locale ? { locale, raw } : { value: plainTextLayout(text, glossary), raw });
      cursor = token.end;
    }
    this.items.push(json.slice(cursor));
    this.segments = this.items.flatMap((item) => (typeof item === 'string' || 'locale' in item ? [] : item.value.segments));
    this.words = this.segments.reduce((sum, segment) => sum + segment.words, 0);
  }

  render(results: SegmentResults, languages: DocumentLanguages): string {
    return this.items
      .map((item) => {
        if (typeof item === 'string') return item;
        if ('locale' in item) return item.locale.toLowerCase() === languages.source ? JSON.stringify(inCaseOf(item.locale, languages.target)) : item.raw;
        return item.value.segments.some((segment) => results.has(segment)) ? JSON.stringify(item.value.render(results, languages)) : item.raw;
      })
      .join('');
  }
}

/** The target code in the case the source code was written in; its region or script (`_US`) would not fit the target, so it goes. */
function inCaseOf(written: string, code: string): string {
  return written === written.toUpperCase() ? code.toUpperCase() : code;
}

interface StringValue {
  start: number;
  end: number;
  /** Under a key starting with `@`, at any depth. */
  metadata: boolean;
  /** Whether its key is `@@locale` or `locale` at the top of an object document. */
  localeKey: boolean;
}

interface Container {
  object: boolean;
  metadata: boolean;
  /** The key whose value comes next, in an object. */
  key?: string;
}

/** The string literals of a valid JSON text that are values, not keys, with where they stand. */
function* stringValues(json: string): Generator<StringValue> {
  const open: Container[] = [];
  const underMetadata = () => {
    const container = open.at(-1);
    return container !== undefined && (container.metadata || container.key?.startsWith('@') === true);
  };
  for (let i = 0; i < json.length; i++) {
    const char = json[i];
    if (char === '{' || char === '[') open.push({ object: char === '{', metadata: underMetadata() });
    else if (char === '}' || char === ']') open.pop();
    if (char !== '"') continue;
    const start = i;
    for (i++; json[i] !== '"'; i++) {
      if (json[i] === '\\') i++;
    }
    const end = i + 1;
    let next = end;
    while (' \t\n\r'.includes(json[next] ?? '.')) next++;
    if (json[next] === ':') {
      open.at(-1)!.key = JSON.parse(json.slice(start, end)) as string;
      continue;
    }
    const top = open.length === 1 && open[0].object ? open[0].key : undefined;
    yield { start, end, metadata: underMetadata(), localeKey: top !== undefined && LOCALE_KEYS.has(top) };
  }
}
