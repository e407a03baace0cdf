import type { Piece, Segment } from '../segments/segment';
import type { InlineSentence } from './inline-sentence';

/** Restored output per segment; a segment without an entry keeps its source bytes. */
export type SegmentResults = ReadonlyMap<Segment, Piece[]>;

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

  constructor(
    private readonly items: readonly LayoutItem[],
    private readonly encode: (text: string) => string = (text) => text,
  ) {
    const sentences = items.filter((item) => typeof item !== 'string');
    this.segments = sentences.flatMap((sentence) => sentence.segments);
    this.words = sentences.reduce((sum, sentence) => sum + sentence.words, 0);
  }

  render(results: SegmentResults, languages: DocumentLanguages): string {
    return this.items.map((item) => (typeof item === 'string' ? item : item.render({ results, languages, encode: this.encode }))).join('');
  }
}
