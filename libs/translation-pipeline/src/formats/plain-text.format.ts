import type { GlossaryMatcher } from '../glossary/glossary-matcher';
import { findMarkupLookalikes } from '../segments/markup-lookalikes';
import { InlineSentence, type SentencePart } from './inline-sentence';
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
/** A tag among the markup look-alikes: `/` before the name of an end tag, `/` before `>` of an empty one. */
const TAG = /^<(\/?)([A-Za-z][^\s/>]*)[^>]*?(\/?)>$/;
/** Plain text means what it says: `&copy` is five characters, not a character reference. */
const asWritten = (bytes: string) => bytes;

/**
 * Plain text: paragraphs, each cut into chunks of whole sentences when long. Line breaks
 * inside a paragraph are opaque placeholders, so the text comes back with exactly its lines
 * whatever an engine does with whitespace. What looks like markup is kept byte for byte and not
 * counted; a start and end tag of one name (`<b>bold</b>`) are an inline element whose words
 * stay inside it, as in HTML (see InlineSentence). Also used for each string value of a JSON
 * document and for HTML's translatable attribute values.
 */
export function plainTextLayout(text: string, glossary?: GlossaryMatcher): Layout {
  const items = text.split(PARAGRAPH_BREAK).flatMap((part, index): LayoutItem[] =>
    index % 2 === 1 ? [part] : chunks(part).map((chunk) => new InlineSentence(lineParts(chunk), glossary, asWritten)),
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

function lineParts(chunk: string): SentencePart[] {
  return chunk
    .split(LINE_BREAK)
    .flatMap((part, index): SentencePart[] => (part === '' ? [] : index % 2 === 1 ? [{ kind: 'blank', bytes: part }] : markupParts(part)));
}

/** A line's text, with what looks like markup as tags of inline elements or as opaque parts. */
function markupParts(line: string): SentencePart[] {
  const parts: SentencePart[] = [];
  let last = 0;
  for (const { start, end } of findMarkupLookalikes(line)) {
    if (start > last) parts.push({ kind: 'text', bytes: line.slice(last, start) });
    parts.push(markupPart(line.slice(start, end)));
    last = end;
  }
  if (last < line.length) parts.push({ kind: 'text', bytes: line.slice(last) });
  return parts;
}

/** A start or end tag may enclose words; an empty tag, a comment or a character reference is opaque. */
function markupPart(bytes: string): SentencePart {
  const render = () => bytes;
  const tag = TAG.exec(bytes);
  if (!tag || tag[3]) return { kind: 'keep', render };
  return { kind: tag[1] ? 'close' : 'open', name: tag[2].toLowerCase(), render };
}
