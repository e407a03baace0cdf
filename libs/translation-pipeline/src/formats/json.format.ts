import { ApiError } from '@platform/errors';
import type { SegmentTerms } from '../segments/segment';
import { jsonStringValues } from './json-string-values';
import { plainTextLayout } from './plain-text.format';
import type { DocumentLanguages, DocumentSentence, Layout, SegmentResults, TranslatableDocument } from './translatable-document';

/** A language tag as locale files write it: `en`, `EN`, `en_US`, `en-GB`, `zh-Hant-TW`. */
const LANGUAGE_TAG = /^([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{1,8})*$/;

type Item = string | { value: Layout; raw: string; path: string } | { locale: string; raw: string };

/**
 * JSON: only string values are translated, each like a plain text. The document is not
 * re-serialised: translated values are written into the original bytes, so keys, numbers
 * (`1.0`, big integers), key order (including integer-like keys, which `JSON.parse` would move
 * to the front), whitespace and untranslated strings (with their escapes) stay exactly as sent.
 *
 * Locale files' habits: everything under a key starting with `@` (ARB metadata such as
 * `"@title": {"description": ...}`, and `@@locale`) is neither translated nor counted; in a
 * WebExtension message (an object of a string `message` and a `description` or `placeholders`,
 * nothing else) only `message` is, the rest being notes for translators and placeholder data;
 * and a language tag under `@@locale` or `locale` at the top of an object document is never
 * translated; naming the source language, it becomes the target's code.
 */
export class JsonDocument implements TranslatableDocument {
  readonly segments;
  readonly words: number;
  readonly sentences: readonly DocumentSentence[];
  private readonly items: Item[] = [];

  constructor(json: string, index: number, terms?: SegmentTerms) {
    let document: unknown;
    try {
      document = JSON.parse(json);
    } catch (error) {
      throw ApiError.invalidParameter(`texts[${index}] is not valid JSON: ${(error as Error).message}`);
    }
    let cursor = 0;
    for (const token of jsonStringValues(json, document)) {
      const raw = json.slice(token.start, token.end);
      const text = JSON.parse(raw) as string;
      const locale = token.localeKey ? LANGUAGE_TAG.exec(text)?.[1] : undefined;
      if (token.metadata && !locale) continue;
      this.items.push(json.slice(cursor, token.start), locale ? { locale, raw } : { value: plainTextLayout(text, terms), raw, path: token.path });
      cursor = token.end;
    }
    this.items.push(json.slice(cursor));
    const values = this.items.flatMap((item) => (typeof item === 'string' || 'locale' in item ? [] : [item]));
    this.segments = values.flatMap(({ value }) => value.segments);
    // A sentence may send the engine more segments than it bills (its inline elements alone): its own count is what is billed.
    this.words = values.reduce((sum, { value }) => sum + value.words, 0);
    this.sentences = values.flatMap(({ value, path }) => value.sentences.map((sentence) => ({ ...sentence, path })));
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
