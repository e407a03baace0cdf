import { maskedText } from '@platform/translation-pipeline';
import { maskedParts } from './memory-key';

/**
 * A segment as read from a file or a request: text and inline codes. `raw` is what a code
 * stands for in the original (`<b>`, `{name}`); `pair` ties an open code to its close within
 * the segment; `ref` is the file's own id of a code (TMX `x`/`i`, XLIFF `id`), which ties a
 * target's code to the source's.
 */
export type InlineToken =
  | { kind: 'text'; text: string }
  | { kind: 'code'; raw: string; ref?: string }
  | { kind: 'open'; raw: string; pair: string; ref?: string }
  | { kind: 'close'; raw: string; pair: string };

/**
 * What each placeholder id of a masked text stood for: an opaque code's original, or a paired
 * tag's start and end. An empty string is a code whose original the file did not give.
 */
export type InlineCodes = Record<string, string | [string, string]>;

/** A segment in the stored form: masked text (the engine form) and the originals of its codes. */
export interface MaskedText {
  text: string;
  codes: InlineCodes;
}

type Resolved =
  | { kind: 'text'; text: string }
  | { kind: 'x'; raw: string; ref?: string }
  | { kind: 'open'; raw: string; close: string; ref?: string }
  | { kind: 'close' };

interface Placeholder {
  kind: 'x' | 'g';
  raw: string;
  ref?: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const UNESCAPES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' };
/** Characters XML 1.0 cannot carry, and UTF-16 halves without their other half: such text could never be exported. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const escapeText = (text: string) => text.replace(/[&<>]/g, (char) => ESCAPES[char]);
const unescapeText = (text: string) => text.replace(/&(?:amp|lt|gt);/g, (entity) => UNESCAPES[entity]);

/** Whether the text holds a character that XML (and so TMX) cannot carry. */
export function hasNonXmlCharacter(text: string): boolean {
  return NOT_XML.test(text);
}

/**
 * A plain text (a PO string, a text sent to the API, a reviewed translation) cut as the pipeline
 * cuts it (see `maskedText`): what looks like markup, template syntax and variables become
 * codes, an inline element's start and end tag a pair. A one-line text is one sentence, read
 * exactly as a lookup reads it.
 */
export function tokensOfPlainText(text: string): InlineToken[] {
  return tokensOfSentence(maskedText(text));
}

/** A sentence as the pipeline masks it, as tokens whose codes are tied to the other side's by their originals and order, not by the pipeline's own ids. */
export function tokensOfSentence(sentence: MaskedText): InlineToken[] {
  return tokensOfMasked(sentence).map((token) => (token.kind === 'text' || token.kind === 'close' ? token : { ...token, ref: undefined }));
}

/** A stored segment as tokens again, each code tied to its placeholder id: what an edit of the other side is matched against. */
export function tokensOfMasked({ text, codes }: MaskedText): InlineToken[] {
  const tokens: InlineToken[] = [];
  const open: string[] = [];
  for (const part of maskedParts(text)) {
    if (part.kind === 'text') tokens.push({ kind: 'text', text: unescapeText(part.text) });
    else if (part.kind === 'x') {
      const code = codes[part.id];
      tokens.push({ kind: 'code', raw: typeof code === 'string' ? code : '', ref: String(part.id) });
    } else if (part.kind === 'open') {
      const code = codes[part.id];
      open.push(String(part.id));
      tokens.push({ kind: 'open', raw: Array.isArray(code) ? code[0] : '', pair: String(part.id), ref: String(part.id) });
    } else {
      const pair = open.pop() ?? '';
      const code = codes[pair];
      tokens.push({ kind: 'close', raw: Array.isArray(code) ? code[1] : '', pair });
    }
  }
  return tokens;
}

/** Pairs opens with their closes; a code without its partner, or crossing another pair, becomes opaque. */
function resolve(tokens: InlineToken[]): Resolved[] {
  const result: Resolved[] = tokens.map((token) => {
    if (token.kind === 'text') return token;
    return { kind: 'x', raw: token.raw, ref: token.kind === 'close' ? undefined : token.ref };
  });
  const open: { pair: string; index: number }[] = [];
  tokens.forEach((token, index) => {
    if (token.kind === 'open') open.push({ pair: token.pair, index });
    if (token.kind !== 'close' || open.at(-1)?.pair !== token.pair) return;
    const start = open.pop()!.index;
    const opening = tokens[start] as Extract<InlineToken, { kind: 'open' }>;
    result[start] = { kind: 'open', raw: opening.raw, close: token.raw, ref: opening.ref };
    result[index] = { kind: 'close' };
  });
  return result;
}

/** The masked text of resolved tokens, each placeholder numbered by `idFor` in order of appearance. */
function encode(resolved: Resolved[], idFor: (placeholder: Placeholder) => number): MaskedText {
  const codes: InlineCodes = {};
  let text = '';
  for (const part of resolved) {
    if (part.kind === 'text') text += escapeText(part.text);
    else if (part.kind === 'close') text += '</g>';
    else if (part.kind === 'x') {
      const id = idFor({ kind: 'x', raw: part.raw, ref: part.ref });
      codes[id] = part.raw;
      text += `<x id="${id}"/>`;
    } else {
      const id = idFor({ kind: 'g', raw: part.raw, ref: part.ref });
      codes[id] = [part.raw, part.close];
      text += `<g id="${id}">`;
    }
  }
  return { text, codes };
}

/** One segment alone, its codes numbered in order of appearance. */
export function maskTokens(tokens: InlineToken[]): MaskedText {
  let next = 0;
  return encode(resolve(tokens), () => ++next);
}

/**
 * A source and its translation in the stored form. The source's codes are numbered in order of
 * appearance; each code of the target takes the number of the source's code it corresponds to:
 * the one with the same file id, else the same original, else the next one of its kind. A code
 * only the target has gets a number after the source's.
 */
export function maskPair(source: InlineToken[], target: InlineToken[]): { source: MaskedText; target: MaskedText } {
  const slots: (Placeholder & { id: number; used: boolean })[] = [];
  const masked = encode(resolve(source), (placeholder) => slots.push({ ...placeholder, id: slots.length + 1, used: false }));
  let extra = slots.length;
  const take = (placeholder: Placeholder, fits: (slot: Placeholder) => boolean) => slots.find((slot) => !slot.used && slot.kind === placeholder.kind && fits(slot));
  const translated = encode(resolve(target), (placeholder) => {
    const slot =
      (placeholder.ref !== undefined ? take(placeholder, (s) => s.ref === placeholder.ref) : undefined) ??
      (placeholder.raw !== '' ? take(placeholder, (s) => s.raw === placeholder.raw) : undefined) ??
      take(placeholder, () => true);
    if (!slot) return ++extra;
    slot.used = true;
    return slot.id;
  });
  return { source: masked, target: translated };
}

/**
 * The readable copy: the masked text with each code's original in place. A code whose original
 * is unknown stays a placeholder, so that nothing is silently lost.
 */
export function readable({ text, codes }: MaskedText): string {
  let result = '';
  const closes: string[] = [];
  for (const part of maskedParts(text)) {
    if (part.kind === 'text') result += unescapeText(part.text);
    else if (part.kind === 'close') result += closes.pop() ?? '';
    else {
      const code = codes[part.id];
      if (part.kind === 'x') result += typeof code === 'string' && code !== '' ? code : `<x id="${part.id}"/>`;
      else {
        const [open, close] = Array.isArray(code) ? code : ['', ''];
        result += open || `<g id="${part.id}">`;
        closes.push(close || '</g>');
      }
    }
  }
  return result;
}
