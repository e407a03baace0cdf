import { escapeForEngine, type Piece, type Segment } from '../segments/segment';
import type { InlineSentence, MaskedText } from './inline-sentence';

const PLACEHOLDER_ID = /(<(?:x|g) id=")(\d+)(")/g;

/**
 * Restored output per segment; a segment without an entry keeps its source bytes. `stored`
 * holds the segments whose output is a stored translation of their whole sentence (a memory's):
 * written as it is, without the checks an engine's output goes through.
 */
export class SegmentResults extends Map<Segment, Piece[]> {
  readonly stored = new Set<Segment>();
}

/** A sentence of a document, where it stands. */
export interface DocumentSentence {
  sentence: InlineSentence;
  /** In a JSON document, the JSON Pointer (RFC 6901) of the string value that holds it; '' elsewhere. */
  path: string;
  /** Whether it is all of a text or of a JSON string value, rather than a piece of something longer. */
  whole: boolean;
}

/** The pair a document was translated with, for markup that names its language (e.g. `lang`). */
export interface DocumentLanguages {
  source: string;
  target: string;
}

/** One input text cut into segments for the engine, able to put itself back together. */
export interface TranslatableDocument {
  /** The segments that have something to translate, in document order. */
  readonly segments: readonly Segment[];
  /** Billable words: a format may send the engine more than it bills (e.g. HTML's second opinions). */
  readonly words: number;
  /** Every sentence with words, nested ones included (an ICU message's), in document order: the units memories answer. */
  readonly sentences: readonly DocumentSentence[];
  render(results: SegmentResults, languages: DocumentLanguages): string;
}

/** Source bytes kept as they are, or a sentence to translate. */
export type LayoutItem = string | InlineSentence;

/**
 * A text as a sequence of source bytes that stay as they are and sentences. `encode` turns
 * translated text into the format's own notation (e.g. HTML entities).
 */
export class Layout implements TranslatableDocument {
  readonly segments: readonly Segment[];
  readonly words: number;
  readonly sentences: readonly DocumentSentence[];

  constructor(
    private readonly items: readonly LayoutItem[],
    private readonly encode: (text: string) => string = (text) => text,
  ) {
    const sentences = items.filter((item) => typeof item !== 'string');
    this.segments = sentences.flatMap((sentence) => sentence.segments);
    this.words = sentences.reduce((sum, sentence) => sum + sentence.words, 0);
    const all = sentences.flatMap((sentence) => sentence.sentences);
    // One line of text, nothing nested in it: the text is that sentence.
    const alone = all.length === 1 && sentences.length === 1 && items.every((item) => typeof item !== 'string' || item.trim() === '');
    this.sentences = all.map((sentence) => ({ sentence, path: '', whole: alone }));
  }

  render(results: SegmentResults, languages: DocumentLanguages): string {
    return this.items.map((item) => (typeof item === 'string' ? item : item.render({ results, languages, encode: this.encode }))).join('');
  }

  /** The whole text as one masked unit: each sentence's memory form (its ids moved past the ones before) between the bytes kept as they are. */
  masked(): MaskedText {
    const whole: MaskedText = { text: '', codes: {} };
    let offset = 0;
    for (const item of this.items) {
      if (typeof item === 'string') {
        whole.text += escapeForEngine(item);
        continue;
      }
      const { text, codes } = item.masked();
      const ids = Object.keys(codes).map(Number);
      whole.text += text.replace(PLACEHOLDER_ID, (_, before: string, id: string, after: string) => `${before}${Number(id) + offset}${after}`);
      for (const id of ids) whole.codes[id + offset] = codes[id];
      offset += Math.max(0, ...ids);
    }
    return whole;
  }
}
