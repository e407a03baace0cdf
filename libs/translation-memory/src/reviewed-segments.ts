import { jsonStringValues } from '@platform/translation-pipeline/text-spans';

/** The formats a reviewed text can have; only `text` and `json` teach the memory. */
export type ReviewedFormat = 'text' | 'html' | 'json';

/** A blank line, with whatever whitespace surrounds it: the pipeline translates paragraphs apart. */
const PARAGRAPH_BREAK = /\n[^\S\n]*\n\s*/;

/**
 * A piece of a reviewed source text that the memory may hold a translation of, and where it is:
 * what the reviewer workspace asks suggestions for, and where it puts one the reviewer inserts.
 */
export interface ReviewedSegment {
  /** The segment as the source has it, without the whitespace around it. */
  text: string;
  /** Which string value of a JSON text (in the order of the text, notes left out); 0 in other formats. */
  value: number;
  /** Which paragraph of the text or value (blank lines part them); 0 for HTML. */
  paragraph: number;
}

interface TextValue {
  start: number;
  end: number;
  text: string;
}

/** A paragraph break, kept by `split`. */
const PARAGRAPH_SEPARATOR = new RegExp(`(${PARAGRAPH_BREAK.source})`);

/**
 * The segments of a source text a reviewer is offered suggestions for: a text paragraph by
 * paragraph, each string value of a JSON text paragraph by paragraph (locale files' notes left
 * out), an HTML text whole. Blank pieces are left out.
 */
export function reviewedSegments(format: ReviewedFormat, source: string): ReviewedSegment[] {
  return (textValues(format, source) ?? []).flatMap((value, index) =>
    paragraphsOf(format, value.text).flatMap((paragraph, at) => {
      const text = paragraph.trim();
      return text === '' ? [] : [{ text, value: index, paragraph: at }];
    }),
  );
}

/**
 * The translation with the place of `segment` taken by `replacement`: the whole value when the
 * source's value is one paragraph, else the same paragraph of the translation's value when it has
 * as many. The whitespace around the replaced text stays. Null when the translation has no such
 * place (other paragraphs, a JSON text that is not valid or has fewer strings).
 */
export function withSegmentReplaced(format: ReviewedFormat, source: string, translation: string, segment: ReviewedSegment, replacement: string): string | null {
  const sourceValue = textValues(format, source)?.[segment.value];
  const value = textValues(format, translation)?.[segment.value];
  if (!sourceValue || !value) return null;
  const sourceParagraphs = paragraphsOf(format, sourceValue.text).length;
  const parts = format === 'html' ? [value.text] : value.text.split(PARAGRAPH_SEPARATOR);
  // Paragraphs are the even parts; the odd ones are the breaks between them.
  const at = sourceParagraphs === 1 ? -1 : parts.length === 2 * sourceParagraphs - 1 ? 2 * segment.paragraph : null;
  if (at === null || at >= parts.length) return null;
  const replaced = at < 0 ? keepEdges(value.text, replacement) : parts.map((part, index) => (index === at ? keepEdges(part, replacement) : part)).join('');
  const written = format === 'json' ? JSON.stringify(replaced) : replaced;
  return translation.slice(0, value.start) + written + translation.slice(value.end);
}

/** The texts of a reviewed text with where they stand: the text itself, or a JSON text's string values; null for JSON that does not parse. */
function textValues(format: ReviewedFormat, text: string): TextValue[] | null {
  if (format !== 'json') return [{ start: 0, end: text.length, text }];
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return null;
  }
  return [...jsonStringValues(text, document)]
    .filter((value) => !value.metadata && !value.localeKey)
    .map(({ start, end }) => ({ start, end, text: JSON.parse(text.slice(start, end)) as string }));
}

function paragraphsOf(format: ReviewedFormat, text: string): string[] {
  return format === 'html' ? [text] : text.split(PARAGRAPH_BREAK);
}

function keepEdges(original: string, replacement: string): string {
  const kept = original.trim();
  const before = original.slice(0, original.length - original.trimStart().length);
  const after = kept === '' ? '' : original.slice(original.trimEnd().length);
  return before + replacement.trim() + after;
}
