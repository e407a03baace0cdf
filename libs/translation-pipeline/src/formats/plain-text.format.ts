import type { SegmentTerms } from '../segments/segment';
import { findIcuLookalikes, icuMessageLayout } from './icu-message';
import { InlineSentence, type Markup, type SentencePart } from './inline-sentence';
import { findTextMarkup, LOOKALIKE_TAG } from './text-markup';
import { Layout, type LayoutItem } from './translatable-document';

/**
 * Segments are kept to a few sentences so that engine calls stay bounded; a line longer than
 * this is cut at sentence boundaries.
 */
export const MAX_SEGMENT_CHARS = 1_000;

/**
 * A line break (`\n`, `\r\n`, `\r`, U+2028, U+2029) with the whitespace around it, blank lines
 * included: a hard boundary, written back byte for byte.
 */
const LINE_BREAK = /([^\S\n\r\u2028\u2029]*(?:\r\n|[\n\r\u2028\u2029])\s*)/u;
const sentences = new Intl.Segmenter(undefined, { granularity: 'sentence' });

/**
 * How a text's bytes read (`decode`) and how translated text is written among them (`encode`);
 * `references`: whether `&name;` is a character reference (the bytes of an HTML attribute value)
 * rather than literal text that looks like one.
 */
export interface TextNotation {
  decode: (bytes: string) => string;
  encode: (text: string) => string;
  references: boolean;
}
/** Plain text means what it says: `&copy` is five characters, not a character reference. */
const AS_WRITTEN: TextNotation = { decode: (bytes) => bytes, encode: (text) => text, references: false };

/** A stretch of a text: bytes read for lines, sentences and markup, or something kept whole wherever it stands. */
export type TextPart = { kind: 'text'; bytes: string } | ({ kind: 'keep' } & Markup);

/** A text's parts in their notation. */
export interface TextFlow extends TextNotation {
  parts: TextPart[];
}

/**
 * Plain text: every line is translated on its own (a line break is a hard boundary: no sentence
 * and no word crosses one, so texts joined line by line come back line by line), and a long line
 * in chunks of whole sentences. The breaks, blank lines and the whitespace around them come back
 * exactly. What looks like markup, and template syntax, is kept byte for byte and not counted
 * (see findTextMarkup); a start and end tag of one name (`<b>bold</b>`) are an inline element
 * whose words stay inside it, as in HTML (see InlineSentence). An ICU message with plural or
 * select arguments is translated message by message (see icuMessageLayout); in a text that only
 * looks like one, the look-alike is kept whole. Also used for each string value of a JSON
 * document and, in their notation, for the bytes of HTML's translatable attribute values.
 */
export function plainTextLayout(text: string, terms?: SegmentTerms, notation = AS_WRITTEN): Layout {
  const linesOf = (flow: TextFlow) => lineItems(flow, terms);
  const message = icuMessageLayout(text, linesOf, notation);
  if (message) return message;
  const flow = plainFlow(text, notation);
  return new Layout(linesOf(flow), flow.encode);
}

function plainFlow(text: string, notation: TextNotation): TextFlow {
  const parts: TextPart[] = [];
  let last = 0;
  for (const { start, end } of findIcuLookalikes(text)) {
    if (start > last) parts.push({ kind: 'text', bytes: text.slice(last, start) });
    const bytes = text.slice(start, end);
    parts.push({ kind: 'keep', render: () => bytes });
    last = end;
  }
  if (last < text.length) parts.push({ kind: 'text', bytes: text.slice(last) });
  return { ...notation, parts };
}

/** The flow's lines as sentences, with the line breaks between them as they are. */
function lineItems(flow: TextFlow, terms?: SegmentTerms): LayoutItem[] {
  const items: LayoutItem[] = [];
  let line: TextPart[] = [];
  const endLine = () => {
    if (line.length > 0) items.push(...chunks(line).map((chunk) => new InlineSentence(chunk.flatMap((part) => sentenceParts(part, flow)), terms, flow.decode)));
    line = [];
  };
  for (const part of flow.parts) {
    if (part.kind === 'keep') {
      line.push(part);
      continue;
    }
    part.bytes.split(LINE_BREAK).forEach((bytes, index) => {
      if (index % 2 === 1) {
        endLine();
        items.push(bytes);
      } else if (bytes) {
        line.push({ kind: 'text', bytes });
      }
    });
  }
  endLine();
  return items;
}

/** A line, cut into chunks of whole sentences when it is long; a kept part counts as one character and is never cut. */
function chunks(line: TextPart[]): TextPart[][] {
  const size = (part: TextPart) => (part.kind === 'text' ? part.bytes.length : 1);
  if (line.reduce((sum, part) => sum + size(part), 0) <= MAX_SEGMENT_CHARS) return [line];
  const result: TextPart[][] = [[]];
  let length = 0;
  for (const part of line) {
    const pieces = part.kind === 'text' ? Array.from(sentences.segment(part.bytes), ({ segment }): TextPart => ({ kind: 'text', bytes: segment })) : [part];
    for (const piece of pieces) {
      if (length > 0 && length + size(piece) > MAX_SEGMENT_CHARS) {
        result.push([]);
        length = 0;
      }
      const chunk = result.at(-1)!;
      const previous = chunk.at(-1);
      if (previous?.kind === 'text' && piece.kind === 'text') chunk[chunk.length - 1] = { kind: 'text', bytes: previous.bytes + piece.bytes };
      else chunk.push(piece);
      length += size(piece);
    }
  }
  return result;
}

function sentenceParts(part: TextPart, notation: TextNotation): SentencePart[] {
  return part.kind === 'text' ? markupParts(part.bytes, notation) : [part];
}

/** A line's text, with what looks like markup as tags of inline elements or as opaque parts. */
function markupParts(line: string, notation: TextNotation): SentencePart[] {
  const parts: SentencePart[] = [];
  let last = 0;
  for (const { start, end } of findTextMarkup(line, notation.references)) {
    if (start > last) parts.push({ kind: 'text', bytes: line.slice(last, start) });
    parts.push(markupPart(line.slice(start, end)));
    last = end;
  }
  if (last < line.length) parts.push({ kind: 'text', bytes: line.slice(last) });
  return parts;
}

/** A start or end tag may enclose words; an empty tag, a comment, a character reference, template syntax or a protected element is opaque. */
function markupPart(bytes: string): SentencePart {
  const render = () => bytes;
  const tag = LOOKALIKE_TAG.exec(bytes);
  if (!tag || tag[4]) return { kind: 'keep', render };
  return { kind: tag[1] ? 'close' : 'open', name: tag[2].toLowerCase(), render };
}
