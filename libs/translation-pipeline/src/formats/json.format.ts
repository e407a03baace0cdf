import { ApiError } from '@platform/errors';
import type { GlossaryMatcher } from '../glossary/glossary-matcher';
import { plainTextLayout } from './plain-text.format';
import type { DocumentLanguages, Layout, SegmentResults, TranslatableDocument } from './translatable-document';

/**
 * JSON: only string values are translated, each like a plain text. The document is not
 * re-serialised: translated values are written into the original bytes, so keys, numbers
 * (`1.0`, big integers), key order (including integer-like keys, which `JSON.parse` would move
 * to the front), whitespace and untranslated strings (with their escapes) stay exactly as sent.
 */
export class JsonDocument implements TranslatableDocument {
  readonly segments;
  private readonly items: (string | { value: Layout; raw: string })[] = [];

  constructor(json: string, index: number, glossary?: GlossaryMatcher) {
    try {
      JSON.parse(json);
    } catch (error) {
      throw ApiError.invalidParameter(`texts[${index}] is not valid JSON: ${(error as Error).message}`);
    }
    let cursor = 0;
    for (const token of stringValues(json)) {
      this.items.push(json.slice(cursor, token.start));
      const raw = json.slice(token.start, token.end);
      this.items.push({ value: plainTextLayout(JSON.parse(raw) as string, glossary), raw });
      cursor = token.end;
    }
    this.items.push(json.slice(cursor));
    this.segments = this.items.flatMap((item) => (typeof item === 'string' ? [] : item.value.segments));
  }

  render(results: SegmentResults, languages: DocumentLanguages): string {
    return this.items
      .map((item) => {
        if (typeof item === 'string') return item;
        return item.value.segments.some((segment) => results.has(segment)) ? JSON.stringify(item.value.render(results, languages)) : item.raw;
      })
      .join('');
  }
}

/** Offsets of the string literals of a valid JSON text that are values, not keys. */
function* stringValues(json: string): Generator<{ start: number; end: number }> {
  for (let i = 0; i < json.length; i++) {
    if (json[i] !== '"') continue;
    const start = i;
    for (i++; json[i] !== '"'; i++) {
      if (json[i] === '\\') i++;
    }
    const end = i + 1;
    let next = end;
    while (' \t\n\r'.includes(json[next] ?? '.')) next++;
    if (json[next] !== ':') yield { start, end };
  }
}
