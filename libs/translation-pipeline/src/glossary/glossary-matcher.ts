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
  /** The term's words, whitespace between them matching any run of whitespace. */
  source: string;
  /** Characters of the term before its first word character (e.g. the dot of ".NET"). */
  prefix: number;
}

/**
 * Consecutive candidates (longest first) of one first word and one prefix, tried as one sticky
 * alternation: the first alternative that matches is the one the candidates' order picks, and
 * one pattern compiles and runs far faster than thousands of single ones.
 */
interface Run {
  prefix: number;
  candidates: Candidate[];
  /** Compiled on first use, as Unicode classes are costly to compile for thousands of terms. */
  pattern?: RegExp;
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
  private readonly byFirstWord = new Map<string, Run[]>();

  constructor(entries: GlossaryTerms['entries']) {
    const seen = new Set<string>();
    const candidatesByFirstWord = new Map<string, Candidate[]>();
    for (const { term, translation } of entries) {
      const words = term.trim().split(/\s+/);
      const first = words.join(' ').match(WORD);
      const key = words.join(' ').toLowerCase();
      if (!first || seen.has(key)) continue;
      seen.add(key);
      const candidate: Candidate = {
        term,
        translation,
        source: words.map(escapeRegExp).join('\\s+'),
        prefix: words[0].search(WORD),
      };
      const firstWord = first[0].toLowerCase();
      const sharing = candidatesByFirstWord.get(firstWord);
      if (sharing) sharing.push(candidate);
      else candidatesByFirstWord.set(firstWord, [candidate]);
    }
    // Sorted once at the end: sorting on every insert made terms sharing a first word quadratic.
    // The sort is stable, so of two terms as long, the earlier entry still comes first.
    for (const [firstWord, candidates] of candidatesByFirstWord) {
      const runs: Run[] = [];
      for (const candidate of candidates.sort((a, b) => b.term.length - a.term.length)) {
        const last = runs.at(-1);
        if (last?.prefix === candidate.prefix) last.candidates.push(candidate);
        else runs.push({ prefix: candidate.prefix, candidates: [candidate] });
      }
      this.byFirstWord.set(firstWord, runs);
    }
  }

  find(text: string): TermMatch[] {
    const matches: TermMatch[] = [];
    let end = 0;
    for (const word of text.matchAll(WORD)) {
      for (const run of this.byFirstWord.get(word[0].toLowerCase()) ?? []) {
        const start = word.index - run.prefix;
        if (start < end) continue;
        // Word boundaries stand once around the alternation: when the boundary after one
        // alternative fails, backtracking tries the next, exactly as trying them one by one.
        const alternatives = run.candidates.map((candidate) => `(${candidate.source})`).join('|');
        const pattern = (run.pattern ??= new RegExp(`(?<!${WORD_CHAR})(?:${alternatives})(?!${WORD_CHAR})`, 'iuy'));
        pattern.lastIndex = start;
        const found = pattern.exec(text);
        if (found) {
          const { term, translation } = run.candidates[found.findIndex((group, i) => i > 0 && group !== undefined) - 1];
          end = pattern.lastIndex;
          matches.push({ start, end, term, translation });
          break;
        }
      }
    }
    return matches;
  }
}
