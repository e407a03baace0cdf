import { escapeRegExp } from '../segments/escape-regexp';
import { lowerInitial, Segment, type InlinePart, type Piece, type SegmentTerms } from '../segments/segment';
import { SegmentResults, type DocumentLanguages } from './translatable-document';

/** Masked text (the engine form) and what each placeholder id stands for: an opaque code's bytes, or an inline element's start and end tag. */
export interface MaskedText {
  text: string;
  codes: Record<string, string | [string, string]>;
}

/** What rendering needs besides the markup itself. */
export interface RenderContext {
  results: SegmentResults;
  languages: DocumentLanguages;
  /** Writes translated text in the document's notation (entities). */
  encode: (text: string) => string;
}

/**
 * Markup that writes itself: kept bytes, or a tag whose attributes are translated. Markup that
 * holds text translated apart from its sentence (an ICU choice's messages) names it in `nested`:
 * the sentence sends and counts it with its own.
 */
export interface Markup {
  render(context: RenderContext): string;
  readonly nested?: { readonly segments: readonly Segment[]; readonly words: number; readonly sentences: readonly InlineSentence[] };
}

/** Text bytes of the source, or markup: an inline element's tag (`open`/`close`) or something opaque (`keep`). */
export type SentencePart =
  | { kind: 'text'; bytes: string }
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
const keyOf = (index: number) => `\u0000${index}`;
const isKey = (raw: string) => raw.startsWith('\u0000');
const indexOf = (key: string) => Number(key.slice(1));
const WORD = /[\p{L}\p{N}]+/gu;
const HAS_WORD = /[\p{L}\p{N}]/u;
const SOMETHING = /\S/u;
/** Punctuation such as `.`, `,`, `:`, `!`, `?` or `¿` at either edge of a text. */
const EDGE_PUNCTUATION = [/^\p{Po}/u, /\p{Po}$/u];

/**
 * One sentence: text between two boundaries (in HTML block elements, `<br>`, table cells; in
 * plain text lines), with inline elements such as `<a>` or `<b>` inside. The whole sentence is one segment, so engines
 * see the words in context; its markup must come back in source order. Engines that keep
 * placeholder positions while reordering words (Apertium does: "the red <b>sofa</b>" comes back
 * as "el sofá <b>rojo</b>") would move words out of their element; so each stretch of text
 * between inline tags is also translated alone, and the sentence's output is used only when
 * every element holds the same words as the stretches inside it translated alone (compared
 * loosely, to allow for agreement: "roja" for "rojo") and all its inner markup, and the engine
 * left the element where it was: text still before and after it if the source had some there, no
 * punctuation gained at its edges (Apertium can put an end tag before its start tag, which leaves
 * the element holding the sentence's last word and its period). Otherwise, when
 * every element holds text only, the sentence is also translated without those tags, and each
 * element's text translated alone is looked for in it: found once each, apart, the tags are
 * put around those words ("el <b>sofá</b> rojo") if that keeps them in order. Failing that the stretches are put together
 * between the original tags: words stay in their element at the cost of the context across it.
 * A stretch whose translation alone has no words left (Apertium drops "will" on its own) counts
 * as its source text, so no element that held words comes back empty.
 */
export class InlineSentence implements Markup {
  readonly segments: Segment[];
  readonly words: number;
  /** Itself when it has words, and the sentences nested in its markup: what memories answer one by one. */
  readonly sentences: InlineSentence[];
  /** The sentence whole, as engines and memories see it. */
  readonly main: Segment;
  private readonly elements: Element[];
  private readonly runs: Run[] = [];
  /** The sentence without its elements' tags, when they hold text only. */
  private readonly untagged?: Segment;

  /** `decode` turns text bytes into the characters they stand for (HTML's character references). */
  constructor(
    private readonly parts: SentencePart[],
    terms: SegmentTerms | undefined,
    private readonly decode: (bytes: string) => string,
  ) {
    this.main = new Segment(this.inline(0, parts.length), terms);
    const nested = parts.flatMap((part) => (part.kind !== 'text' && part.nested ? [part.nested] : []));
    this.words = nested.reduce((sum, inner) => sum + inner.words, this.main.words);
    this.elements = pairs(parts).filter((element) => new Segment(this.inline(element.open + 1, element.close), terms).words > 0);
    if (this.main.words > 0 && this.elements.length > 0) {
      const cuts = [...new Set(this.elements.flatMap((element) => [element.open, element.close]))].sort((a, b) => a - b);
      let from = 0;
      for (const cut of [...cuts, parts.length]) {
        if (cut > from) {
          const segment = new Segment(this.inline(from, cut), terms);
          if (segment.words > 0) this.runs.push({ from, to: cut, segment });
        }
        from = cut + 1;
      }
      const textOnly = this.elements.every(({ open, close }) => parts.slice(open + 1, close).every((part) => part.kind === 'text'));
      if (textOnly) this.untagged = new Segment(this.inline(0, parts.length, new Set(cuts)), terms);
    }
    this.segments = [...this.ownSegments, ...nested.flatMap((inner) => inner.segments)];
    this.sentences = [...(this.main.words > 0 ? [this] : []), ...nested.flatMap((inner) => inner.sentences)];
  }

  /** The segments sent to engines for the sentence itself: the whole, and the stretches its inline elements are checked against. */
  get ownSegments(): Segment[] {
    return this.main.words > 0 ? [this.main, ...(this.untagged ? [this.untagged] : []), ...this.runs.map((run) => run.segment)] : [];
  }

  /** The sentence in the form memories store: its memory form, and each placeholder's source bytes (an ICU choice's whole text). */
  masked(): MaskedText {
    const context: RenderContext = { results: new SegmentResults(), languages: { source: '', target: '' }, encode: (text) => text };
    const codes = this.main.memoryCodes((piece) => ('text' in piece ? piece.text : isKey(piece.raw) ? this.markup(indexOf(piece.raw), context) : piece.raw));
    return { text: this.main.memoryForm(), codes };
  }

  render(context: RenderContext): string {
    const main = context.results.get(this.main);
    if (!main) return this.source(0, this.parts.length, context);
    if (this.elements.length === 0 || context.results.stored.has(this.main) || this.keepsWordsInElements(main, context)) return this.write(main, context);
    const wrapped = this.wrapElements(context);
    if (wrapped) return this.write(wrapped, context);
    let output = '';
    for (let index = 0; index < this.parts.length; ) {
      const run = this.runs.find((candidate) => candidate.from === index);
      const pieces = run && this.translated(run, context);
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
      return sameWords(this.alone(open + 1, close, context), inside.join(' ')) && this.inPlace({ open, close }, pieces, start, end);
    });
  }

  /**
   * Whether the element at `start`..`end` of an engine's output stayed where the source has it:
   * with text before and after it if the source has text there, and without punctuation at its
   * edges that its source text lacks (the sentence's period pulled in with a misplaced end tag).
   */
  private inPlace({ open, close }: Element, pieces: Piece[], start: number, end: number): boolean {
    const text = (from: number, to: number) => pieces.slice(from, to).flatMap((piece) => ('text' in piece ? [piece.text] : [])).join('');
    const before = SOMETHING.test(this.textOf(0, open));
    const after = SOMETHING.test(this.textOf(close + 1, this.parts.length));
    return (
      (!before || SOMETHING.test(text(0, start))) &&
      (!after || SOMETHING.test(text(end + 1, pieces.length))) &&
      noPunctuationGained(this.textOf(open + 1, close), text(start + 1, end))
    );
  }

  /** The untagged sentence's translation with each element's tags around its words, if each is found exactly once. */
  private wrapElements(context: RenderContext): Piece[] | undefined {
    const untagged = this.untagged && context.results.get(this.untagged);
    if (!untagged) return undefined;
    const found: { piece: number; start: number; end: number; element: Element }[] = [];
    for (const element of this.elements) {
      const alone = this.alone(element.open + 1, element.close, context).trim();
      if (!alone || !noPunctuationGained(this.textOf(element.open + 1, element.close), alone)) return undefined;
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
      const pieces = run && this.translated(run, context);
      if (pieces) {
        texts.push(pieces.flatMap((piece) => ('text' in piece ? [piece.text] : [])).join(''));
        index = run.to - 1;
      } else {
        texts.push(this.textOf(index, index + 1));
      }
    }
    return texts.join(' ');
  }

  /** A stretch's translation alone, unless there is none or it lost every word of the source. */
  private translated(run: Run, context: RenderContext): Piece[] | undefined {
    const pieces = context.results.get(run.segment);
    return pieces?.some((piece) => 'text' in piece && HAS_WORD.test(piece.text)) ? pieces : undefined;
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
    return part.kind === 'text' ? part.bytes : part.render(context);
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

/** Whether `output` has no punctuation at an edge where `source` has none. */
function noPunctuationGained(source: string, output: string): boolean {
  return EDGE_PUNCTUATION.every((edge) => !edge.test(output.trim()) || edge.test(source.trim()));
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
  return !first || first !== first.toLowerCase() ? pieces : lowerInitial(pieces);
}
