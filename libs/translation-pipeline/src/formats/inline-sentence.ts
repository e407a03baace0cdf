import type { GlossaryMatcher } from '../glossary/glossary-matcher';
import { escapeRegExp } from '../segments/escape-regexp';
import { Segment, type InlinePart, type Piece } from '../segments/segment';
import type { DocumentLanguages, SegmentResults } from './translatable-document';

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

/**
 * Text bytes of the source; whitespace the engine must not touch (`blank`: a plain text's line
 * break, written back as it is and deciding the spacing around it); or markup: an inline
 * element's tag (`open`/`close`) or something opaque (`keep`).
 */
export type SentencePart =
  | { kind: 'text'; bytes: string }
  | { kind: 'blank'; bytes: string }
  | ({ kind: 'open' | 'close'; name: string } & Markup)
  | ({ kind: 'keep' } & Markup);

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
// Blanks reach it as their own bytes, which the segment recognises as whitespace.
const keyOf = (index: number) => `\u0000${index}`;
const isKey = (raw: string) => raw.startsWith('\u0000');
const indexOf = (key: string) => Number(key.slice(1));
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * One sentence: text between two boundaries (in HTML block elements, `<br>`, table cells; in
 * plain text paragraphs), with inline elements such as `<a>` or `<b>` inside. The whole sentence is one segment, so engines
 * see the words in context; its markup must come back in source order. Engines that keep
 * placeholder positions while reordering words (Apertium does: "the red <b>sofa</b>" comes back
 * as "el sofá <b>rojo</b>") would move words out of their element; so each stretch of text
 * between inline tags is also translated alone, and the sentence's output is used only when
 * every element holds the same words as the stretches inside it translated alone (compared
 * loosely, to allow for agreement: "roja" for "rojo") and all its inner markup. Otherwise, when
 * every element holds text only, the sentence is also translated without those tags, and each
 * element's text translated alone is looked for in it: found once each, apart, the tags are
 * put around those words ("el <b>sofá</b> rojo") if that keeps them in order. Failing that the stretches are put together
 * between the original tags: words stay in their element at the cost of the context across it.
 */
export class InlineSentence implements Markup {
  readonly segments: Segment[];
  readonly words: number;
  private readonly main: Segment;
  private readonly elements: Element[];
  private readonly runs: Run[] = [];
  /** The sentence without its elements' tags, when they hold text only. */
  private readonly untagged?: Segment;

  /** `decode` turns text bytes into the characters they stand for (HTML's character references). */
  constructor(
    private readonly parts: SentencePart[],
    glossary: GlossaryMatcher | undefined,
    private readonly decode: (bytes: string) => string,
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
      const textOnly = this.elements.every(({ open, close }) => parts.slice(open + 1, close).every((part) => part.kind === 'text'));
      if (textOnly) this.untagged = new Segment(this.inline(0, parts.length, new Set(cuts)), glossary);
    }
    this.segments = this.words > 0 ? [this.main, ...(this.untagged ? [this.untagged] : []), ...this.runs.map((run) => run.segment)] : [];
  }

  render(context: RenderContext): string {
    const main = context.results.get(this.main);
    if (!main) return this.source(0, this.parts.length, context);
    if (this.elements.length === 0 || this.keepsWordsInElements(main, context)) return this.write(main, context);
    const wrapped = this.wrapElements(context);
    if (wrapped) return this.write(wrapped, context);
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
    const at = markupPositions(pieces);
    return at !== undefined && this.elements.every(({ open, close }) => {
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

  /** The untagged sentence's translation with each element's tags around its words, if each is found exactly once. */
  private wrapElements(context: RenderContext): Piece[] | undefined {
    const untagged = this.untagged && context.results.get(this.untagged);
    if (!untagged) return undefined;
    const found: { piece: number; start: number; end: number; element: Element }[] = [];
    for (const element of this.elements) {
      const alone = this.alone(element.open + 1, element.close, context).trim();
      if (!alone) return undefined;
      const exact = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(alone)}(?![\\p{L}\\p{N}])`, 'giu');
      const find = (accept: (match: RegExpExecArray) => boolean, pattern: RegExp) =>
        untagged.flatMap((piece, index) =>
          'text' in piece ? [...piece.text.matchAll(pattern)].filter(accept).map((match) => ({ piece: index, start: match.index, end: match.index + match[0].length, element })) : [],
        );
      let matches = find(() => true, exact);
      // One word may agree differently in context ("nueva" where alone it is "nuevo").
      if (matches.length === 0 && /^[\p{L}\p{N}]+$/u.test(alone)) matches = find((match) => similar(alone.toLowerCase(), match[0].toLowerCase()), WORD);
      if (matches.length !== 1) return undefined;
      found.push(matches[0]);
    }
    found.sort((a, b) => a.piece - b.piece || a.start - b.start);
    if (found.some((match, n) => n > 0 && found[n - 1].piece === match.piece && found[n - 1].end > match.start)) return undefined;
    const wrapped = untagged.flatMap((piece, index): Piece[] => {
      const inside = found.filter((match) => match.piece === index);
      if (!('text' in piece) || inside.length === 0) return [piece];
      const result: Piece[] = [];
      let cursor = 0;
      for (const { start, end, element } of inside) {
        result.push({ text: piece.text.slice(cursor, start) }, { raw: keyOf(element.open) }, { text: piece.text.slice(start, end) }, { raw: keyOf(element.close) });
        cursor = end;
      }
      return [...result, { text: piece.text.slice(cursor) }];
    });
    return markupPositions(wrapped) ? wrapped : undefined;
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
    return pieces.map((piece) => ('text' in piece ? context.encode(piece.text) : isKey(piece.raw) ? this.markup(indexOf(piece.raw), context) : piece.raw)).join('');
  }

  private source(from: number, to: number, context: RenderContext): string {
    let output = '';
    for (let index = from; index < to; index++) output += this.markup(index, context);
    return output;
  }

  private markup(index: number, context: RenderContext): string {
    const part = this.parts[index];
    return part.kind === 'text' || part.kind === 'blank' ? part.bytes : part.render(context);
  }

  private textOf(from: number, to: number): string {
    return this.parts
      .slice(from, to)
      .map((part) => (part.kind === 'text' ? this.decode(part.bytes) : ' '))
      .join('');
  }

  /** The parts `from`..`to` for a segment, leaving out those at `skip`. */
  private inline(from: number, to: number, skip = new Set<number>()): InlinePart[] {
    return this.parts.slice(from, to).flatMap((part, offset): InlinePart[] => {
      const index = from + offset;
      if (skip.has(index)) return [];
      if (part.kind === 'text') return [{ kind: 'text', text: this.decode(part.bytes) }];
      if (part.kind === 'blank') return [{ kind: 'keep', raw: part.bytes }];
      const raw = keyOf(index);
      return [part.kind === 'keep' ? { kind: 'keep', raw } : { kind: part.kind, name: part.name, raw }];
    });
  }
}

/**
 * Where each part's markup sits in `pieces`, or nothing when it is not in source order: markup
 * keeps its order (the links of a list stay in theirs) whatever the words around it do.
 */
function markupPositions(pieces: Piece[]): Map<number, number> | undefined {
  const at = new Map<number, number>();
  let previous = -1;
  for (const [position, piece] of pieces.entries()) {
    if (!('raw' in piece) || !isKey(piece.raw)) continue;
    if (indexOf(piece.raw) <= previous) return undefined;
    previous = indexOf(piece.raw);
    at.set(previous, position);
  }
  return at;
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
