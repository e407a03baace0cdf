import type { DoNotTranslateTerm } from '../style/translation-style';
import { escapeRegExp } from './escape-regexp';
import type { TextRange } from './variables';

/** Letters, combining marks and digits: what a whole-word match must not touch on either side. */
const WORD_CHAR = '[\\p{L}\\p{M}\\p{N}]';

/**
 * Finds a style profile's do-not-translate terms in text: whole words only, each case-sensitive
 * or not as the profile says, the longest first where two start at one place ("Apple Pay" over
 * "Apple"). Whitespace inside a term matches any run of whitespace; what is found is kept as the
 * text spells it, byte for byte.
 */
export class DoNotTranslateMatcher {
  private readonly patterns: RegExp[];

  constructor(terms: readonly DoNotTranslateTerm[]) {
    const pattern = (caseSensitive: boolean) => {
      const alternatives = terms
        .filter((term) => term.caseSensitive === caseSensitive)
        .map(({ term }) => term.trim().split(/\s+/).map(escapeRegExp).join('\\s+'))
        .sort((a, b) => b.length - a.length);
      return alternatives.length > 0 ? [new RegExp(`(?<!${WORD_CHAR})(?:${alternatives.join('|')})(?!${WORD_CHAR})`, caseSensitive ? 'gu' : 'giu')] : [];
    };
    this.patterns = [...pattern(true), ...pattern(false)];
  }

  /** Ranges in text order, none overlapping: of two that overlap, the earlier wins, then the longer. */
  find(text: string): TextRange[] {
    const found = this.patterns
      .flatMap((pattern) => [...text.matchAll(pattern)].map((match) => ({ start: match.index, end: match.index + match[0].length })))
      .sort((a, b) => a.start - b.start || b.end - a.end);
    const ranges: TextRange[] = [];
    for (const range of found) if (range.start >= (ranges.at(-1)?.end ?? 0)) ranges.push(range);
    return ranges;
  }
}
