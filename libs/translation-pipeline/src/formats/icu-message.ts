import { parse, TYPE, type MessageFormatElement, type PluralElement, type SelectElement } from '@formatjs/icu-messageformat-parser';
import type { Segment } from '../segments/segment';
import type { TextRange } from '../segments/variables';
import type { InlineSentence, Markup, RenderContext } from './inline-sentence';
import type { TextFlow, TextNotation, TextPart } from './plain-text.format';
import { Layout, type DocumentLanguages, type LayoutItem, type SegmentResults } from './translatable-document';

/**
 * Tags stay text for the parser (`<b>` is markup the plain-text reading already handles), and
 * every element knows where it stands, so that everything but the text of a message is written
 * back as the source's own bytes, never re-printed from the tree.
 */
const PARSING = { captureLocation: true, ignoreTag: true } as const;
/** Where an ICU argument that chooses among messages seems to start: `{count, plural,`, `{who, select}`. */
const CHOICE_ARGUMENT = /\{\s*[\p{L}\p{N}_.$-]+\s*,\s*(?:plural|select|selectordinal)\s*[,}]/gu;
/**
 * In a literal, what the apostrophe does: `''` is one apostrophe (kept in the text bytes), and an
 * apostrophe before a character ICU gives a meaning to quotes everything up to the next lone
 * apostrophe (or the end): a literal `{name}`, kept as written. `#` has a meaning only directly
 * in a plural's message.
 */
const QUOTED = /''|'([{}<>](?:''|[^'])*)'?/g;
const QUOTED_IN_PLURAL = /''|'([{}<>#](?:''|[^'])*)'?/g;
const unescape = (bytes: string) => bytes.replaceAll("''", "'");
/** Real messages nest two or three choices; a deeper one is kept whole rather than read by recursion without end. */
const MAX_NESTING = 16;

/** Builds the layout items of one message's flow, lines and sentences (see plainTextLayout). */
export type LinesOf = (flow: TextFlow) => LayoutItem[];

type Choice = PluralElement | SelectElement;
const isChoice = (element: MessageFormatElement): element is Choice => element.type === TYPE.plural || element.type === TYPE.select;

/**
 * An ICU MessageFormat message, when `text` is one that chooses among messages (a `plural`,
 * `select` or `selectordinal` argument anywhere; a text with none is not read as ICU, so that
 * `Click '{name}'` keeps its variable). The text around the choices is translated as sentences
 * in which each choice is one placeholder; each choice's messages are translated the same way,
 * choices nested in them included. Argument names, keywords, selectors, offsets and typed
 * arguments (`{n, number, ::currency/EUR}`) stay byte for byte, and so do `#` and arguments
 * inside messages, as placeholders. The engine gets the characters the text means (`it''s` is
 * `it's`); a literal quoted with apostrophes (`'{name}'`) is kept as written. Undefined when the
 * text does not parse as such a message, or nests choices deeper than MAX_NESTING. The message
 * is written in `notation` (an HTML attribute value's bytes hold character references): its
 * texts are decoded from it before ICU's quoting is undone, and encoded for it after.
 */
export function icuMessageLayout(text: string, linesOf: LinesOf, notation: TextNotation): Layout | undefined {
  if (!hasChoiceArgument(text)) return undefined;
  let elements: MessageFormatElement[];
  try {
    elements = parse(text, PARSING);
  } catch {
    return undefined;
  }
  if (!elements.some(isChoice)) return undefined;
  const flow = new MessageReader(text, linesOf, notation).flow(elements, false);
  return flow && new IcuMessageLayout(linesOf(flow), flow.encode, text, skeletonOf(elements));
}

/**
 * Stretches of a text that look like an ICU choice (`{n, plural, ...}` up to its closing brace,
 * or to the end when it has none): in a text that is not an ICU message they are kept whole,
 * braces and all, rather than half translated.
 */
export function findIcuLookalikes(text: string): TextRange[] {
  const found: TextRange[] = [];
  for (const match of text.matchAll(CHOICE_ARGUMENT)) {
    if (match.index < (found.at(-1)?.end ?? 0)) continue;
    found.push({ start: match.index, end: closingBrace(text, match.index) });
  }
  return found;
}

function hasChoiceArgument(text: string): boolean {
  // `search` neither reads nor moves the expression's lastIndex.
  return text.search(CHOICE_ARGUMENT) >= 0;
}

function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i + 1;
  }
  return text.length;
}

/** Turns parsed messages into flows of the source's bytes. */
class MessageReader {
  /** Where the source doubles apostrophes, the translation does too (see `encoder`). */
  private readonly doubled: boolean;

  constructor(
    private readonly source: string,
    private readonly linesOf: LinesOf,
    private readonly notation: TextNotation,
  ) {
    this.doubled = source.includes("''");
  }

  /**
   * The flow of one message, `depth` choices deep; `inPlural` when it is directly a plural's,
   * where `#` is the number. Undefined if a literal reads otherwise than the parser read it, or
   * choices nest too deep.
   */
  flow(elements: MessageFormatElement[], inPlural: boolean, depth = 0): TextFlow | undefined {
    const parts: TextPart[] = [];
    for (const element of elements) {
      const { start, end } = this.range(element);
      if (element.type === TYPE.literal) {
        const literal = this.literal(this.source.slice(start, end), element.value, inPlural);
        if (!literal) return undefined;
        parts.push(...literal);
      } else if (isChoice(element)) {
        const choice = depth < MAX_NESTING ? this.choice(element, depth + 1) : undefined;
        if (!choice) return undefined;
        parts.push(choice);
      } else {
        parts.push(kept(this.source.slice(start, end)));
      }
    }
    const { decode, encode, references } = this.notation;
    const quote = encoder(inPlural, this.doubled);
    return { parts, decode: (bytes) => unescape(decode(bytes)), encode: (text) => encode(quote(text)), references };
  }

  private choice(element: Choice, depth: number): IcuChoice | undefined {
    const inPlural = element.type === TYPE.plural;
    const branches: Branch[] = [];
    // By position: object keys that look like integers (`select` on `0`, `1`) are not in source order.
    const options = Object.values(element.options).sort((a, b) => a.location!.start.offset - b.location!.start.offset);
    for (const option of options) {
      const flow = this.flow(option.value, inPlural, depth);
      if (!flow) return undefined;
      // The option's location spans its braces.
      branches.push({ start: option.location!.start.offset + 1, end: option.location!.end.offset - 1, layout: new Layout(this.linesOf(flow), flow.encode) });
    }
    const { start, end } = this.range(element);
    return new IcuChoice(this.source, start, end, branches);
  }

  /** A literal's text bytes, with quoted stretches kept; undefined unless they read as `value`. */
  private literal(raw: string, value: string, inPlural: boolean): TextPart[] | undefined {
    const parts: TextPart[] = [];
    let read = '';
    let last = 0;
    const text = (bytes: string) => {
      if (!bytes) return;
      parts.push({ kind: 'text', bytes });
      read += unescape(bytes);
    };
    for (const match of raw.matchAll(inPlural ? QUOTED_IN_PLURAL : QUOTED)) {
      if (match[1] === undefined) continue;
      text(raw.slice(last, match.index));
      parts.push(kept(match[0]));
      read += unescape(match[1]);
      last = match.index + match[0].length;
    }
    text(raw.slice(last));
    return read === value ? parts : undefined;
  }

  private range(element: MessageFormatElement): TextRange {
    return { start: element.location!.start.offset, end: element.location!.end.offset };
  }
}

function kept(bytes: string): TextPart {
  return { kind: 'keep', render: () => bytes };
}

/**
 * Translated text as an ICU literal: `{`, `}` (and in a plural's message `#`) quoted, so that
 * what an engine writes can never open an argument; an apostrophe doubled where it would
 * otherwise start or continue a quote (next to such a character or another apostrophe, and at
 * either end of the text, which placeholders may follow), and everywhere if the source doubles
 * its own. The message is parsed again before it is written (IcuMessageLayout), for what no
 * text can see alone: a quote the engine ends a text with, just before a quoted literal.
 */
function encoder(inPlural: boolean, doubled: boolean): (text: string) => string {
  const special = inPlural ? /'|[{}#]+/g : /'|[{}]+/g;
  return (text) =>
    text.replace(special, (match: string, offset: number) => {
      if (match !== "'") return `'${match}'`;
      const next = text[offset + 1] ?? '';
      const previous = text[offset - 1] ?? '';
      return doubled || !next || !previous || "'{}<>#".includes(next) || "{}#".includes(previous) ? "''" : "'";
    });
}

interface Branch {
  /** Where the message stands between its braces. */
  start: number;
  end: number;
  layout: Layout;
}

/**
 * A `plural`, `select` or `selectordinal` argument: one placeholder in the sentence around it,
 * written back as its source bytes with each message between its braces translated. Its
 * messages' segments are sent and counted with that sentence.
 */
class IcuChoice implements Markup {
  readonly kind = 'keep';
  readonly nested: { segments: readonly Segment[]; words: number; sentences: readonly InlineSentence[] };

  constructor(
    private readonly source: string,
    private readonly start: number,
    private readonly end: number,
    private readonly branches: Branch[],
  ) {
    this.nested = {
      segments: branches.flatMap((branch) => branch.layout.segments),
      words: branches.reduce((sum, branch) => sum + branch.layout.words, 0),
      sentences: branches.flatMap((branch) => branch.layout.sentences.map(({ sentence }) => sentence)),
    };
  }

  render(context: RenderContext): string {
    let output = '';
    let cursor = this.start;
    for (const { start, end, layout } of this.branches) {
      output += this.source.slice(cursor, start) + layout.render(context.results, context.languages);
      cursor = end;
    }
    return output + this.source.slice(cursor, this.end);
  }
}

/**
 * The whole message, written back only if it still parses to the source's skeleton: whatever an
 * engine does, a message never comes back broken (it comes back as sent instead).
 */
class IcuMessageLayout extends Layout {
  constructor(
    items: LayoutItem[],
    encode: (text: string) => string,
    private readonly source: string,
    private readonly skeleton: string,
  ) {
    super(items, encode);
  }

  override render(results: SegmentResults, languages: DocumentLanguages): string {
    const output = super.render(results, languages);
    if (output === this.source) return output;
    try {
      return skeletonOf(parse(output, PARSING)) === this.skeleton ? output : this.source;
    } catch {
      return this.source;
    }
  }
}

/**
 * Everything of a message but its text: arguments with their types and styles, `#`, and choices
 * with their offsets and selectors, recursively. Within one message the order of arguments is
 * free (a language may put them the other way round).
 */
function skeletonOf(elements: MessageFormatElement[]): string {
  return elements
    .flatMap((element): string[] => {
      switch (element.type) {
        case TYPE.literal:
          return [];
        case TYPE.pound:
          return ['#'];
        case TYPE.plural:
        case TYPE.select: {
          const kind = element.type === TYPE.select ? 'select' : `${element.pluralType} offset ${element.offset}`;
          const options = Object.entries(element.options).map(([selector, option]) => `${selector}{${skeletonOf(option.value)}}`);
          return [`{${element.value} ${kind} ${options.sort().join(' ')}}`];
        }
        default: {
          const style = 'style' in element && element.style ? JSON.stringify(typeof element.style === 'string' ? element.style : element.style.parsedOptions) : '';
          return [`{${element.value} ${TYPE[element.type]} ${style}}`];
        }
      }
    })
    .sort()
    .join(' ');
}
