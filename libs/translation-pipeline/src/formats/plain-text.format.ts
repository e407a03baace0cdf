import type { GlossaryMatcher } from '../glossary/glossary-matcher';
import { Segment, type InlinePart } from '../segments/segment';
import { Layout, type LayoutItem } from './translatable-document';

/**
 * Segments are kept to a few sentences so that engine calls stay bounded; a paragraph longer
 * than this is cut at sentence boundaries.
 */
export const MAX_SEGMENT_CHARS = 1_000;

/** A blank line, with whatever whitespace surrounds it: paragraphs are translated separately. */
const PARAGRAPH_BREAK = /(\n[^\S\n]*\n\s*)/;
/** A single line break inside a paragraph, with the spaces around it, kept byte for byte. */
const LINE_BREAK = /([^\S\n]*\n[^\S\n]*)/;
const sentences = new Intl.Segmenter(undefined, { granularity: 'sentence' });

/**
 * Plain text: paragraphs, each cut into chunks of whole sentences when long. Line breaks
 * inside a paragraph are opaque placeholders, so the text comes back with exactly its lines
 * whatever an engine does with whitespace. Also used for each string value of a JSON document.
 */
export function plainTextLayout(text: string, glossary?: GlossaryMatcher): Layout {
  const items = text.split(PARAGRAPH_BREAK).flatMap((part, index): LayoutItem[] =>
    index % 2 === 1 ? [part] : chunks(part).map((chunk) => ({ segment: new Segment(lineParts(chunk), glossary), raw: chunk })),
  );
  return new Layout(items);
}

function chunks(paragraph: string): string[] {
  if (paragraph.length <= MAX_SEGMENT_CHARS) return [paragraph];
  const result: string[] = [];
  let current = '';
  for (const { segment } of sentences.segment(paragraph)) {
    if (current && current.length + segment.length > MAX_SEGMENT_CHARS) {
      result.push(current);
      current = '';
    }
    current += segment;
  }
  return [...result, current];
}

function lineParts(chunk: string): InlinePart[] {
  return chunk
    .split(LINE_BREAK)
    .flatMap((part, index): InlinePart[] => (part === '' ? [] : index % 2 === 1 ? [{ kind: 'keep', raw: part }] : [{ kind: 'text', text: part }]));
}
