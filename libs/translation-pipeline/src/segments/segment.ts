import { PLACEHOLDER } from '@platform/translation-engines';
import { decodeHTMLStrict } from 'entities';
import type { GlossaryMatcher } from '../glossary/glossary-matcher';
import { RenderedTerms, type TermOccurrence } from '../glossary/term-renderings';
import type { Typography } from '../style/typography';
import type { DoNotTranslateMatcher } from './do-not-translate';
import { findMarkupLookalikes } from './markup-lookalikes';
import { findVariables, type TextRange } from './variables';
import { findVerbatimTokens } from './verbatim-tokens';
import { countWords, engineText } from './word-count';

/**
 * What a format hands over for one stretch of translatable content: text (already decoded) and
 * the markup around and inside it. `keep` is written back byte for byte and never translated;
 * `open`/`close` are inline tags that should stay around the words they enclose.
 */
export type InlinePart =
  | { kind: 'text'; text: string }
  | { kind: 'keep'; raw: string }
  | { kind: 'open'; name: string; raw: string }
  | { kind: 'close'; name: string; raw: string };

/** A piece of output: `raw` is written as it is, `text` is encoded for the format first. */
export type Piece = { raw: string } | { text: string };

/**
 * Terms a segment looks for in its text: a glossary's (enforced), and a style profile's terms
 * never to translate, which are kept like variables: as they are, not counted.
 */
export interface SegmentTerms {
  glossary?: GlossaryMatcher;
  doNotTranslate?: DoNotTranslateMatcher;
}

/**
 * How glossary terms travel through the engine. `in-place`: as source words, so the engine
 * orders and inflects them like any word; `renderings` (term -> the engine's output for
 * `escapeForEngine(term)` alone) says what to look for in the output. `protected`: cut out as `<x/>`
 * placeholders holding the target term, which the engine can only keep or drop.
 */
export type TermHandling = { kind: 'in-place'; renderings: ReadonlyMap<string, string | undefined> } | { kind: 'protected' };

export interface Restoration {
  pieces: Piece[];
  /** Glossary terms the output lacks: a dropped placeholder, or (in place) a rendering not found as often as the term occurs. */
  missingTerms: string[];
  /** Whether any placeholder (markup, variable or term) or term rendering is missing. */
  incomplete: boolean;
}

type Paired =
  | { kind: 'text'; text: string }
  | { kind: 'keep'; raw: string }
  | { kind: 'pair-open'; raw: string; close: string; pair: number }
  | { kind: 'pair-close'; pair: number };

type Node =
  | { type: 'text'; text: string }
  | { type: 'x'; id: number; piece: Piece; term?: string; words?: number }
  | { type: 'open'; id: number; raw: string; close: string }
  | { type: 'close'; id: number };

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
/** Placeholders as engines give them back, tolerating the spellings HTML serialisers produce. */
const PLACEHOLDER_TAG = /<x\s+id="(\d+)"\s*\/?>(?:<\/x>)?|<g\s+id="(\d+)"\s*>|<\/g\s*>/g;
const BLANK = /^\s*$/;
const SPACE_RUN = / {2,}/g;
const RUN_INSIDE_SENTENCE = /(?<![.!?:;…]) {2,}/gu;

/**
 * One unit sent to the engine: XML-escaped text with `<x id/>` for everything opaque (markup,
 * variables, protected glossary terms) and `<g id>...</g>` for paired inline tags. Leading and
 * trailing whitespace and markup stay outside (engines trim and would lose them) and come back
 * from the source as they were.
 */
export class Segment {
  /** Word count of the translatable text as engines receive it (variables, markup and do-not-translate terms excluded, glossary terms included), and of verbatim tokens. */
  readonly words: number;
  /** The translatable text with placeholders as blanks: for language detection and hints. */
  readonly plainText: string;
  /** Whether glossary terms occur: the output then differs from the source even if the engine changed nothing. */
  readonly enforcesTerms: boolean;
  /** The glossary terms that occur, each once: what the engine is asked to render on its own. */
  readonly terms: string[];
  private readonly lead: Piece[];
  /** Whitespace before the first and after the last piece of markup of the edges: what a stored translation gets back from the source. */
  private readonly outer: { lead: Piece[]; tail: Piece[] };
  /** Opaque markup at the edges (and the whitespace between it and the text) as placeholders: part of the memory form only. */
  private readonly edges: { lead: Node[]; tail: Node[] };
  /**
   * Opaque markup before the text went outside the segment (`# files`, `{count} items`) and the
   * text starts in lower case: the sentence began before the segment, though the engine, seeing
   * the segment's start, capitalises it.
   */
  private readonly midSentence: boolean;
  private readonly tail: Piece[];
  /** Glossary terms left as text. */
  private readonly body: Node[];
  /** Glossary terms cut out as placeholders. */
  private readonly protectedBody: Node[];
  private readonly occurrences: TermOccurrence[] = [];
  /**
   * Runs of spaces in the output are the engine's (Apertium leaves one where it drops a word)
   * and become one space, unless the source has runs too: then those after a sentence's end
   * stay, the habit of two spaces between sentences.
   */
  private readonly spaceRuns: RegExp;
  private nextId = 1;

  constructor(parts: InlinePart[], { glossary, doNotTranslate }: SegmentTerms = {}) {
    const paired = pairTags(parts);
    this.lead = peel(paired, 'start');
    this.tail = peel(paired, 'end').reverse();

    const pairIds = new Map<number, number>();
    const markup = paired.map((part): Node => {
      if (part.kind === 'text') return { type: 'text', text: engineText(part.text) };
      if (part.kind === 'keep') return { type: 'x', id: this.nextId++, piece: { raw: part.raw } };
      if (part.kind === 'pair-close') return { type: 'close', id: pairIds.get(part.pair)! };
      pairIds.set(part.pair, this.nextId);
      return { type: 'open', id: this.nextId++, raw: part.raw, close: part.close };
    });

    const literal = (text: string) => ({ piece: { text } });
    const masked = this.cut(this.cut(markup, findVariables, literal), findMarkupLookalikes, literal);
    // Before verbatim tokens, so that a kept term such as `Node.js` is not counted as one.
    const kept = doNotTranslate ? this.cut(masked, (text) => doNotTranslate.find(text), literal) : masked;
    const withVariables = this.cut(kept, findVerbatimTokens, (text, token) => ({ piece: { text }, words: token.words }));
    // Inline tags are breaks too: engines translate the words on either side of one separately.
    this.plainText = withVariables.map((node) => (node.type === 'text' ? node.text : ' ')).join('');
    this.words = countWords(this.plainText) + withVariables.reduce((sum, node) => sum + (node.type === 'x' ? (node.words ?? 0) : 0), 0);
    const initial = /\p{L}/u.exec(this.plainText)?.[0];
    this.midSentence = this.lead.some((piece) => 'raw' in piece) && initial !== undefined && initial !== initial.toUpperCase();
    this.body = withVariables;
    this.spaceRuns = withVariables.some((node) => node.type === 'text' && node.text.includes('  ')) ? RUN_INSIDE_SENTENCE : SPACE_RUN;
    this.protectedBody = glossary
      ? this.cut(withVariables, (text) => glossary.find(text), (_, match) => {
          this.occurrences.push({ term: match.term, translation: match.translation });
          return { piece: { text: match.translation }, term: match.term };
        })
      : withVariables;
    this.terms = [...new Set(this.occurrences.map((occurrence) => occurrence.term))];
    this.enforcesTerms = this.terms.length > 0;
    const [outerLead, edgeLead] = splitAt(this.lead, this.lead.findIndex((piece) => 'raw' in piece));
    const [edgeTail, outerTail] = splitAt(this.tail, this.tail.findLastIndex((piece) => 'raw' in piece) + 1);
    this.outer = { lead: outerLead, tail: outerTail };
    const asNode = (piece: Piece): Node => ('raw' in piece ? { type: 'x', id: this.nextId++, piece } : { type: 'text', text: piece.text });
    this.edges = { lead: edgeLead.map(asNode), tail: edgeTail.map(asNode) };
  }

  toEngine(terms: TermHandling['kind']): string {
    return serialize(terms === 'in-place' ? this.body : this.protectedBody);
  }

  /**
   * What memories key the segment by: the engine form with glossary terms as words, and with
   * the opaque markup at its edges as placeholders too (`{{count}} files` is not `files`), so
   * that a stored translation says where that markup goes. The whitespace around it all is there
   * as it was (keys trim it; a stored translation gets the source's back).
   */
  memoryForm(): string {
    return serialize(this.memoryNodes());
  }

  /**
   * What each placeholder of the memory form stands for, as `original` spells a piece: an opaque
   * code's bytes, or an inline element's start and end tag.
   */
  memoryCodes(original: (piece: Piece) => string): Record<number, string | [string, string]> {
    const codes: Record<number, string | [string, string]> = {};
    for (const node of this.memoryNodes()) {
      if (node.type === 'x') codes[node.id] = original(node.piece);
      else if (node.type === 'open') codes[node.id] = [original({ raw: node.raw }), original({ raw: node.close })];
    }
    return codes;
  }

  /**
   * A stored translation of the memory form put back together with the source's markup and
   * variables, exactly as stored otherwise. Undefined when it lacks one of the segment's
   * placeholders, or, where glossary terms are enforced, a term's target as often as the source
   * has the term: the glossary wins over a memory.
   */
  restoreStored(target: string, typography?: Typography): Piece[] | undefined {
    const rendered = this.enforcesTerms ? new RenderedTerms(this.occurrences, new Map(this.occurrences.map((o) => [o.term, o.translation]))) : undefined;
    const { pieces, missing, translated } = this.rebuild(target, this.memoryNodes(), (text) => {
      const decoded = decodeHTMLStrict(text);
      return rendered ? rendered.replace(decoded) : decoded;
    });
    if (missing.length > 0 || (rendered && rendered.missing().length > 0)) return undefined;
    // A stored translation follows the profile's typography as an engine's does: memories and
    // catalogs were written under other conventions (a plain space before « : », straight quotes).
    return [...this.outer.lead, ...(typography ? typography.apply(pieces, translated) : pieces), ...this.outer.tail];
  }

  /**
   * Puts the original markup, variables and glossary terms back into an engine's output, sent
   * with the same handling of terms. Placeholders the engine dropped are reported; with `repair`
   * missing markup and variables are appended at the end (glossary terms never are), so no byte
   * of the source markup is lost. `typography` then sets the engine's text, and nothing else.
   */
  restore(output: string, terms: TermHandling, repair = false, typography?: Typography): Restoration {
    const body = terms.kind === 'in-place' ? this.body : this.protectedBody;
    const rendered = terms.kind === 'in-place' ? new RenderedTerms(this.occurrences, this.decodedRenderings(terms.renderings)) : undefined;
    const { pieces, missing, translated } = this.rebuild(output, body, (text) => {
      const decoded = decodeHTMLStrict(text).replace(this.spaceRuns, ' ');
      return rendered ? rendered.replace(decoded) : decoded;
    });
    if (repair) {
      for (const node of missing) {
        if (node.type === 'open') pieces.push({ raw: node.raw }, { raw: node.close });
        else if (node.term === undefined) pieces.push(node.piece);
      }
    }
    const missingTerms = rendered ? rendered.missing() : missing.flatMap((node) => (node.type === 'x' && node.term !== undefined ? [node.term] : []));
    const typeset = typography ? typography.apply(pieces, translated) : pieces;
    return {
      pieces: [...this.lead, ...(this.midSentence ? lowerInitial(typeset) : typeset), ...this.tail],
      missingTerms,
      incomplete: missing.length > 0 || missingTerms.length > 0,
    };
  }

  /**
   * The pieces of an output in the placeholders of `nodes`: each placeholder's markup back in
   * place, text through `clean` (`translated` holds those pieces); and the placeholders the output lacks.
   */
  private rebuild(
    output: string,
    nodes: Node[],
    clean: (text: string) => string,
  ): { pieces: Piece[]; missing: Exclude<Node, { type: 'text' | 'close' }>[]; translated: Set<Piece> } {
    const placeholders = new Map<number, Exclude<Node, { type: 'text' | 'close' }>>();
    for (const node of nodes) {
      if (node.type === 'x' || node.type === 'open') placeholders.set(node.id, node);
    }
    const pieces: Piece[] = [];
    const translated = new Set<Piece>();
    const seen = new Set<number>();
    const openGroups: string[] = [];
    const emitText = (text: string) => {
      if (!text) return;
      const piece = { text: clean(text) };
      pieces.push(piece);
      translated.add(piece);
    };
    const trimmed = output.trim();
    let last = 0;
    for (const match of trimmed.matchAll(PLACEHOLDER_TAG)) {
      emitText(trimmed.slice(last, match.index));
      last = match.index + match[0].length;
      const kind = match[1] !== undefined ? 'x' : match[2] !== undefined ? 'open' : 'close';
      const node = placeholders.get(Number(match[1] ?? match[2]));
      if (kind === 'close') {
        const close = openGroups.pop();
        if (close !== undefined) pieces.push({ raw: close });
      } else if (node?.type === 'x' && kind === 'x') {
        seen.add(node.id);
        pieces.push(node.piece);
      } else if (node?.type === 'open' && kind === 'open') {
        seen.add(node.id);
        pieces.push({ raw: node.raw });
        openGroups.push(node.close);
      }
    }
    emitText(trimmed.slice(last));
    pieces.push(...openGroups.reverse().map((raw) => ({ raw })));
    return { pieces, missing: [...placeholders.values()].filter((node) => !seen.has(node.id)), translated };
  }

  private memoryNodes(): Node[] {
    const space = (pieces: Piece[]): Node[] => pieces.map((piece) => ({ type: 'text', text: 'text' in piece ? piece.text : '' }));
    return [...space(this.outer.lead), ...this.edges.lead, ...this.body, ...this.edges.tail, ...space(this.outer.tail)];
  }

  private decodedRenderings(renderings: ReadonlyMap<string, string | undefined>): Map<string, string | undefined> {
    return new Map(this.terms.map((term) => {
      const rendering = renderings.get(term);
      return [term, rendering === undefined ? undefined : decodeHTMLStrict(rendering)];
    }));
  }

  /** Cuts the ranges `find` reports out of every text node as `<x/>` placeholders. */
  private cut<M extends TextRange>(nodes: Node[], find: (text: string) => M[], placeholder: (text: string, match: M) => { piece: Piece; term?: string; words?: number }): Node[] {
    return nodes.flatMap((node) => {
      if (node.type !== 'text') return [node];
      const result: Node[] = [];
      let last = 0;
      for (const range of find(node.text)) {
        if (range.start > last) result.push({ type: 'text', text: node.text.slice(last, range.start) });
        result.push({ type: 'x', id: this.nextId++, ...placeholder(node.text.slice(range.start, range.end), range) });
        last = range.end;
      }
      if (last < node.text.length) result.push({ type: 'text', text: node.text.slice(last) });
      return result;
    });
  }
}

/** Nodes in the engine form: XML-escaped text and placeholders. */
function serialize(nodes: Node[]): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case 'text':
          return escapeForEngine(node.text);
        case 'x':
          return PLACEHOLDER.empty(node.id);
        case 'open':
          return PLACEHOLDER.open(node.id);
        case 'close':
          return PLACEHOLDER.close;
      }
    })
    .join('');
}

/** `items` before `index` and from it on; all of them first when `index` is negative. */
function splitAt<T>(items: T[], index: number): [T[], T[]] {
  return index < 0 ? [items, []] : [items.slice(0, index), items.slice(index)];
}

/** Text as engines receive it between placeholders: XML-escaped. */
export function escapeForEngine(text: string): string {
  return text.replace(/[&<>]/g, (char) => ESCAPES[char]);
}

/** The first letter of the text in lower case, if it starts a capitalised word ("THERE" is spelled that way on purpose). */
export function lowerInitial(pieces: Piece[]): Piece[] {
  let done = false;
  return pieces.map((piece) => {
    if (done || !('text' in piece) || !/\p{L}/u.test(piece.text)) return piece;
    done = true;
    return { text: piece.text.replace(/^(\P{L}*)(\p{L})(?!\p{Lu})/u, (_, before: string, letter: string) => before + letter.toLowerCase()) };
  });
}

/** Pairs inline open/close tags; a tag without its partner in this stretch becomes opaque. */
function pairTags(parts: InlinePart[]): Paired[] {
  const result: (InlinePart | Paired)[] = [...parts];
  const stack: { name: string; index: number; raw: string }[] = [];
  let pairs = 0;
  parts.forEach((part, index) => {
    if (part.kind === 'open') stack.push({ name: part.name, index, raw: part.raw });
    if (part.kind !== 'close' || stack.at(-1)?.name !== part.name) return;
    const open = stack.pop()!;
    result[open.index] = { kind: 'pair-open', raw: open.raw, close: part.raw, pair: pairs };
    result[index] = { kind: 'pair-close', pair: pairs++ };
  });
  return result.map((part) => (part.kind === 'open' || part.kind === 'close' ? { kind: 'keep', raw: part.raw } : part));
}

/**
 * Removes whitespace and opaque markup from one end of `parts` (in place) and returns it, in
 * the order it was taken: engines trim what surrounds a segment, so it never goes to them.
 */
function peel(parts: Paired[], end: 'start' | 'end'): Piece[] {
  const taken: Piece[] = [];
  const at = () => (end === 'start' ? 0 : parts.length - 1);
  while (parts.length > 0) {
    const part = parts[at()];
    if (part.kind === 'pair-open' || part.kind === 'pair-close') break;
    if (part.kind === 'keep' || BLANK.test(part.text)) {
      taken.push(part.kind === 'keep' ? { raw: part.raw } : { text: part.text });
      parts.splice(at(), 1);
      continue;
    }
    const space = (end === 'start' ? /^\s+/ : /\s+$/).exec(part.text)?.[0];
    if (space) {
      taken.push({ text: space });
      parts[at()] = { kind: 'text', text: end === 'start' ? part.text.slice(space.length) : part.text.slice(0, -space.length) };
    }
    break;
  }
  return taken;
}
