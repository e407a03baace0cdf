import type { Piece, Segment } from '../segments/segment';

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

/** Source bytes kept as they are, or a segment with the source bytes it stands for. */
export type LayoutItem = string | { segment: Segment; raw: string };

/**
 * A text as a sequence of source bytes that stay as they are and segments. `encode` turns
 * translated text into the format's own notation (e.g. HTML entities).
 */
export class Layout implements TranslatableDocument {
  readonly segments: readonly Segment[];
  readonly words: number;

  constructor(
    private readonly items: readonly LayoutItem[],
    private readonly encode: (text: string) => string = (text) => text,
  ) {
    this.segments = items.flatMap((item) => (typeof item !== 'string' && item.segment.words > 0 ? [item.segment] : []));
    this.words = this.segments.reduce((sum, segment) => sum + segment.words, 0);
  }

  // Plain text carries no language markup of its own.
  render(results: SegmentResults, _languages?: DocumentLanguages): string {
    return this.items
      .map((item) => {
        if (typeof item === 'string') return item;
        const pieces = results.get(item.segment);
        return pieces ? pieces.map((piece) => ('raw' in piece ? piece.raw : this.encode(piece.text))).join('') : item.raw;
      })
      .join('');
  }
}
