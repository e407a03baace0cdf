import type { TextRange } from './variables';

/** A stretch of text that is kept as written and counted as Unicode word segmentation counts it. */
export interface VerbatimToken extends TextRange {
  words: number;
}

/**
 * Addresses and names that are not words of a language: URLs (`https://join-lemmy.org/docs`),
 * e-mail addresses, and identifiers, domain and file names, letters and digits (hyphenated or
 * not) joined by `_`, or by `.`/`:` before a lower-case part (`snake_case`, `www.eff.org`,
 * `lemmy-federate.com`, `index.html`, `Node.js`).
 * Engines would translate their parts (`docs` → `documentos`); they stay byte for byte instead.
 * Abbreviations (`e.g.`, `U.S.A.`, `EU:n`: no part longer than two letters) and sentences glued
 * without a space (`Save.Then`) stay text. Each counts the words UAX #29 finds in it, as an
 * independent count of the text does (`www.eff.org` is one word): gluing words with `.` or `_`
 * saves nothing that is translated, since such a token is not translated at all.
 */
const VERBATIM = new RegExp(
  [
    /\b(?:https?|ftp|sftp|wss?):\/\/[^\s<>"'`{}|\\^]{1,2000}/u.source,
    /\b(?:mailto:)?[\p{L}\p{N}._%+-]{1,64}@[\p{L}\p{N}-]{1,63}(?:\.[\p{L}\p{N}-]{1,63})+/u.source,
    /(?<![\p{L}\p{N}_-]|[\p{L}\p{N}][.:])[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+){0,10}(?:(?:_+|[.:])[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+){0,10}){1,50}(?![\p{L}\p{N}_-])/u.source,
  ].join('|'),
  'gu',
);
/** A URL's trailing punctuation belongs to the sentence. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]'"]+$/u;
const SHORT_PARTS = /^(?:[\p{L}\p{N}]{1,2}[.:])+[\p{L}\p{N}]{1,2}$/u;
const LOWER_AFTER_JOINT = /[.:][\p{Ll}\p{N}]/u;
const DIGITS_ONLY = /^[\p{N}.:]+$/u;
const words = new Intl.Segmenter(undefined, { granularity: 'word' });

export function findVerbatimTokens(text: string): VerbatimToken[] {
  const found: VerbatimToken[] = [];
  for (const match of text.matchAll(VERBATIM)) {
    let token = match[0];
    if (token.includes('://')) token = token.replace(TRAILING_PUNCTUATION, '');
    else if (!token.includes('@') && !isIdentifier(token)) continue;
    found.push({ start: match.index, end: match.index + token.length, words: wordsIn(token) });
  }
  return found;
}

function isIdentifier(token: string): boolean {
  if (DIGITS_ONLY.test(token) || SHORT_PARTS.test(token)) return false;
  return token.includes('_') || LOWER_AFTER_JOINT.test(token);
}

function wordsIn(token: string): number {
  let count = 0;
  for (const segment of words.segment(token)) if (segment.isWordLike) count++;
  return count;
}
