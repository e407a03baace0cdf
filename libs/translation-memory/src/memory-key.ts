/**
 * The one normalisation under every memory lookup. Pure and free of Node, so the console can
 * compute the same key in the browser.
 *
 * Texts arrive masked, in the engine form of the pipeline: XML-escaped text with `<x id="N"/>`
 * for each opaque code (variable, markup, ICU block) and `<g id="N">…</g>` for paired inline
 * tags. Two segments whose codes differ only in what they stand for (`<b>` or `<strong>`,
 * `{name}` or `%s`) have the same masked text once the ids are numbered in order of
 * appearance, and so the same key.
 */

/** The placeholders of the masked form, exactly as the pipeline and this lib write them. */
const PLACEHOLDER = /<x id="(\d+)"\/>|<g id="(\d+)">|<\/g>/g;

export interface CanonicalText {
  /** The masked text with its ids renumbered 1, 2, … in order of appearance. */
  text: string;
  /** The id each canonical number stood for: `ids[k - 1]` was renumbered to `k`. */
  ids: number[];
}

/** Renumbers a masked text's ids in order of appearance; an id that recurs keeps its first number. */
export function canonicalIds(masked: string): CanonicalText {
  const ids: number[] = [];
  const numberOf = (id: number) => {
    const known = ids.indexOf(id);
    return known >= 0 ? known + 1 : ids.push(id);
  };
  const text = masked.replace(PLACEHOLDER, (tag, x: string | undefined, g: string | undefined) => {
    if (x !== undefined) return `<x id="${numberOf(Number(x))}"/>`;
    if (g !== undefined) return `<g id="${numberOf(Number(g))}">`;
    return tag;
  });
  return { text, ids };
}

/**
 * The key of a masked text: Unicode NFC, trimmed, every run of whitespace one space, ids in
 * order of appearance. Exact matches compare the SHA-256 of this key; fuzzy ones its trigrams.
 */
export function memoryKey(masked: string): string {
  return canonicalIds(masked.normalize('NFC')).text.trim().replace(/\s+/g, ' ');
}

/**
 * A masked text written in canonical numbers (a stored target), renumbered into the ids of the
 * segment it answers: canonical `k` becomes `ids[k - 1]`. Undefined when the text uses a code the
 * segment does not have, which the segment's owner could not put back.
 */
export function withIds(masked: string, ids: readonly number[]): string | undefined {
  let foreign = false;
  const text = masked.replace(PLACEHOLDER, (tag, x: string | undefined, g: string | undefined) => {
    const canonical = Number(x ?? g);
    if (x === undefined && g === undefined) return tag;
    const id = ids[canonical - 1];
    if (id === undefined) {
      foreign = true;
      return tag;
    }
    return x !== undefined ? `<x id="${id}"/>` : `<g id="${id}">`;
  });
  return foreign ? undefined : text;
}

/** Splits a masked text into text and placeholders, for whoever renders it. */
export function* maskedParts(masked: string): Generator<{ kind: 'text'; text: string } | { kind: 'x' | 'open'; id: number } | { kind: 'close' }> {
  let last = 0;
  for (const match of masked.matchAll(PLACEHOLDER)) {
    if (match.index > last) yield { kind: 'text', text: masked.slice(last, match.index) };
    last = match.index + match[0].length;
    if (match[1] !== undefined) yield { kind: 'x', id: Number(match[1]) };
    else if (match[2] !== undefined) yield { kind: 'open', id: Number(match[2]) };
    else yield { kind: 'close' };
  }
  if (last < masked.length) yield { kind: 'text', text: masked.slice(last) };
}
