import { decodeHTML } from 'entities';
import type { GlossaryMatcher } from '../../glossary/glossary-matcher';
import { Segment, type InlinePart, type Piece } from '../../segments/segment';
import type { DocumentLanguages, SegmentResults } from '../translatable-document';

/** What rendering needs besides the markup itself. */
export interface RenderContext {
  results: SegmentResults;
  languages: DocumentLanguages;
  /** Writes translated text in the document's notation (entities). */
  encode: (text: string) => string;
}

/** Markup that writes itself: kept bytes, or a tag whose attributes are translated. */
export interface Markup {
  render(context: RenderContext): string;
}

/** Text bytes of the source, or markup: an inline element's tag (`open`/`close`) or something opaque (`keep`). */
export type SentencePart = { kind: 'text'; bytes: string } | ({ kind: 'open' | 'close'; name: string } & Markup) | ({ kind: 'keep' } & Markup);

/** A stretch of parts translated on its own when the whole sentence's output cannot be trusted. */
interface Run {
  from: number;
  to: number;
  segment: Segment;
}

/** An inline element of the sentence: the indexes of its start and end tag parts. */
interface Element {
  open: number;
  close: number;
}

// Markup reaches the segment as a key naming its part; engines never see it (it is a placeholder
// for them) and rendering looks the part up again, so tags can carry translated attributes.
const keyOf = (index: number) => `\u0000${index}`;
const indexOf = (key: string) => Number(key.slice(1));
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * One sentence of HTML: text between two boundaries (block elements, `<br>`, table cells), with
 * inline elements such as `<a>` or `<b>` inside. The whole sentence is one segment, so engines
 * see the words in context and may move an inline element with its words. Engines that keep
 * placeholder positions while reordering words (Apertium does: "the red <b>sofa</b>" comes back
 * as "el sofá <b>rojo</b>") would move words out of their element; so each stretch of text
 * between inline tags is also translated alone, and the sentence's output is used only when
 * every element holds the same words as the stretches inside it translated alone (compared
 * loosely, to allow for agreement: "roja" for "rojo") and all its inner markup. Otherwise the
 * stretches are put together between the original tags: words stay in their element at the
 * cost of the context across it.
 */
export class InlineSentence implements Markup {
  readonly segments: Segment[];
  readonly words: number;
  private readonly main: Segment;
  private readonly elements: Element[];
  private readonly runs: Run[] = [];

  constructor(
    private readonly parts: SentencePart[],
    glossary?: GlossaryMatcher,
  ) {
    this.main = new Segment(this.inline(0, parts.length), glossary);
    this.words = this.main.words;
    this.elements = pairs(parts).filter((element) => new Segment(this.inline(element.open + 1, element.close)).words > 0);
    if (this.words > 0 && this.elements.length > 0) {
      const cuts = [...new Set(this.elements.flatMap((element) => [element.open, element.close]))].sort((a, b) => a - b);
      let from = 0;
      for (const cut of [...cuts, parts.length]) {
        if (cut > from) {
          const segment = new Segment(this.inline(from, cut), glossary);
          if (segment.words > 0) this.runs.push({ from, to: cut, segment });
        }
        from = cut + 1;
      }
    }
    this.segments = this.words > 0 ? [this.main, ...this.runs.map((run) => run.segment)] : [];
  }

  render(context: RenderContext): string {
    const main = context.results.get(this.main);
    if (!main) return this.source(0, this.parts.length, context);
    if (this.elements.length === 0 || this.keepsWordsInElements(main, context)) return this.write(main, context);
    let output = '';
    for (let index = 0; index < this.parts.length; ) {
      const run = this.runs.find((candidate) => candidate.from === index);
      const pieces = run && context.results.get(run.segment);
      const to = run ? run.to : index + 1;
      output += pieces ? this.write(keepInitialCase(pieces, this.textOf(index, to)), context) : this.source(index, to, context);
      index = to;
    }
    return output;
  }

  private keepsWordsInElements(pieces: Piece[], context: RenderContext): boolean {
    const at = new Map<number, number>();
    for (const [position, piece] of pieces.entries()) {
      if (!('raw' in piece)) continue;
      if (at.has(indexOf(piece.raw))) return false;
      at.set(indexOf(piece.raw), position);
    }
    return this.elements.every(({ open, close }) => {
      const start = at.get(open);
      const end = at.get(close);
      if (start === undefined || end === undefined || end < start) return false;
      for (let index = open + 1; index < close; index++) {
        const position = at.get(index);
        if (this.parts[index].kind !== 'text' && (position === undefined || position < start || position > end)) return false;
      }
      const inside = pieces.slice(start + 1, end).flatMap((piece) => ('text' in piece ? [piece.text] : []));
      return sameWords(this.alone(open + 1, close, context), inside.join(' '));
    });
  }

  /** The text of parts `from`..`to` as their stretches translate alone. */
  private alone(from: number, to: number, context: RenderContext): string {
    const texts: string[] = [];
    for (let index = from; index < to; index++) {
      const run = this.runs.find((candidate) => candidate.from === index && candidate.to <= to);
      const pieces = run && context.results.get(run.segment);
      if (pieces) {
        texts.push(pieces.flatMap((piece) => ('text' in piece ? [piece.text] : [])).join(''));
        index = run.to - 1;
      } else {
        texts.push(this.textOf(index, index + 1));
      }
    }
    return texts.join(' ');
  }

  private write(pieces: Piece[], context: RenderContext): string {
    return pieces.map((piece) => ('raw' in piece ? this.markup(indexOf(piece.raw), context) : context.encode(piece.text))).join('');
  }

  private source(from: number, to: number, context: RenderContext): string {
    let output = '';
    for (let index = from; index < to; index++) output += this.markup(index, context);
    return output;
  }

  private markup(index: number, context: RenderContext): string {
    const part = this.parts[index];
    return part.kind === 'text' ? part.bytes : part.render(context);
  }

  private textOf(from: number, to: number): string {
    return this.parts
      .slice(from, to)
      .map((part) => (part.kind === 'text' ? decodeHTML(part.bytes) : ' '))
      .join('');
  }

  private inline(from: number, to: number): InlinePart[] {
    return this.parts.slice(from, to).map((part, offset): InlinePart => {
      if (part.kind === 'text') return { kind: 'text', text: decodeHTML(part.bytes) };
      const raw = keyOf(from + offset);
      return part.kind === 'keep' ? { kind: 'keep', raw } : { kind: part.kind, name: part.name, raw };
    });
  }
}

/** Start and end tags paired the way `Segment` pairs them: an end tag closes the innermost open element of its name only. */
function pairs(parts: SentencePart[]): Element[] {
  const stack: { name: string; index: number }[] = [];
  const elements: Element[] = [];
  parts.forEach((part, index) => {
    if (part.kind === 'open') stack.push({ name: part.name, index });
    if (part.kind === 'close' && stack.at(-1)?.name === part.name) elements.push({ open: stack.pop()!.index, close: index });
  });
  return elements;
}

/** The same words up to inflection: each word matches one whose stem (all but at most two last letters, at least three) is the same. */
function sameWords(expected: string, actual: string): boolean {
  const want = expected.toLowerCase().match(WORD) ?? [];
  const have = actual.toLowerCase().match(WORD) ?? [];
  if (want.length !== have.length) return false;
  return want.every((word) => {
    const match = have.findIndex((candidate) => similar(word, candidate));
    if (match < 0) return false;
    have.splice(match, 1);
    return true;
  });
}

function similar(a: string, b: string): boolean {
  let prefix = 0;
  while (prefix < a.length && a[prefix] === b[prefix]) prefix++;
  return a === b || (prefix >= 3 && a.length - prefix <= 2 && b.length - prefix <= 2);
}

/** A stretch translated alone starts a sentence for the engine, which capitalises it; mid-sentence it keeps the source's case. */
function keepInitialCase(pieces: Piece[], source: string): Piece[] {
  const first = /\p{L}/u.exec(source)?.[0];
  if (!first || first !== first.toLowerCase()) return pieces;
  let done = false;
  return pieces.map((piece) => {
    if (done || !('text' in piece) || !/\p{L}/u.test(piece.text)) return piece;
    done = true;
    // Only a capitalised word: "THERE" is spelled that way on purpose.
    return { text: piece.text.replace(/^(\P{L}*)(\p{L})(?!\p{Lu})/u, (_, before: string, letter: string) => before + letter.toLowerCase()) };
  });
}
