import { escapeRegExp } from '../segments/escape-regexp';
import type { TextRange } from '../segments/variables';
import type { GlossaryTerms } from './glossary-terms';

export interface TermMatch extends TextRange {
  term: string;
  translation: string;
}

interface Candidate {
  term: string;
  translation: string;
  /** Sticky, case-insensitive, with word boundaries on both sides; compiled on first use, as Unicode classes are costly to compile for thousands of terms. */
  source: string;
  pattern?: RegExp;
  /** Characters of the term before its first word character (e.g. the dot of ".NET"). */
  prefix: number;
}

/** Letters, combining marks and digits: what a whole-word match must not touch on either side. */
const WORD_CHAR = '[\\p{L}\\p{M}\\p{N}]';
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/**
 * Finds glossary terms in text: whole words only (Unicode-aware), case-insensitively, the
 * longest term first so that "sofa bed" wins over "sofa". Whitespace inside a term matches any
 * run of whitespace. Terms are indexed by their first word, so a glossary of thousands of
 * entries costs a map lookup per word of text rather than a scan per term.
 */
export class GlossaryMatcher {
  private readonly byFirstWord = new Map<string, Candidate[]>();

  constructor(entries: GlossaryTerms['entries']) {
    const seen = new Set<string>();
    for (const { term, translation } of entries) {
      const words = term.trim().split(/\s+/);
      const first = words.join(' ').match(WORD);
      const key = words.join(' ').toLowerCase();
      if (!first || seen.has(key)) continue;
      seen.add(key);
      const candidate: Candidate = {
        term,
        translation,
        source: `(?<!${WORD_CHAR})${words.map(escapeRegExp).join('\\s+')}(?!${WORD_CHAR})`,
        prefix: words[0].search(WORD),
      };
      const firstWord = first[0].toLowerCase();
      this.byFirstWord.set(firstWord, [...(this.byFirstWord.get(firstWord) ?? []), candidate].sort((a, b) => b.term.length - a.term.length));
    }
  }

  find(text: string): TermMatch[] {
    const matches: TermMatch[] = [];
    let end = 0;
    for (const word of text.matchAll(WORD)) {
      for (const candidate of this.byFirstWord.get(word[0].toLowerCase()) ?? []) {
        const start = word.index - candidate.prefix;
        if (start < end) continue;
        const pattern = (candidate.pattern ??= new RegExp(candidate.source, 'iuy'));
        pattern.lastIndex = start;
        if (pattern.test(text)) {
          end = pattern.lastIndex;
          matches.push({ start, end, term: candidate.term, translation: candidate.translation });
          break;
        }
      }
    }
    return matches;
  }
}
