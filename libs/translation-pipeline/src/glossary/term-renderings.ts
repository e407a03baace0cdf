import { GlossaryMatcher } from './glossary-matcher';

/** One occurrence of a glossary term in a segment's source text. */
export interface TermOccurrence {
  term: string;
  translation: string;
}

/** Starts with a capital and goes on in lower case: how engines write a word that opens a sentence. */
const CAPITALISED = /^\p{Lu}(?!\p{Lu})/u;
const LOWER_START = /^\p{Ll}/u;

/**
 * Puts glossary target terms where the engine wrote its own rendering of the source terms.
 * `renderings` holds what the engine made of each term on its own (decoded text). A rendering is
 * found as a whole word, case-insensitively; one that is blank, holds markup or is shared by two
 * terms of the segment is not looked for, so those terms count as not found. `missing()` names
 * every term whose rendering was not found exactly as often as the term occurs in the source: the
 * engine inflected or reworded it, or another word came out the same; the caller then protects
 * the terms as placeholders instead.
 */
export class RenderedTerms {
  private readonly matcher: GlossaryMatcher;
  private readonly byRendering = new Map<string, TermOccurrence>();
  private readonly expected = new Map<string, number>();
  private readonly found = new Map<string, number>();

  constructor(occurrences: TermOccurrence[], renderings: ReadonlyMap<string, string | undefined>) {
    const ambiguous = new Set<string>();
    for (const occurrence of occurrences) {
      this.expected.set(occurrence.term, (this.expected.get(occurrence.term) ?? 0) + 1);
      const rendering = renderings.get(occurrence.term)?.trim();
      if (!rendering || /[<>]/.test(rendering) || !/[\p{L}\p{N}]/u.test(rendering)) continue;
      const key = rendering.split(/\s+/).join(' ').toLowerCase();
      const other = this.byRendering.get(key);
      if (other && other.term !== occurrence.term) ambiguous.add(key);
      this.byRendering.set(key, occurrence);
    }
    for (const key of ambiguous) this.byRendering.delete(key);
    this.matcher = new GlossaryMatcher([...this.byRendering].map(([rendering, { translation }]) => ({ term: rendering, translation })));
  }

  /** `text` with every rendering replaced by its glossary target term. */
  replace(text: string): string {
    let result = '';
    let last = 0;
    for (const match of this.matcher.find(text)) {
      const { term } = this.byRendering.get(match.term)!;
      this.found.set(term, (this.found.get(term) ?? 0) + 1);
      result += text.slice(last, match.start) + followCapital(match.translation, text.slice(match.start, match.end));
      last = match.end;
    }
    return result + text.slice(last);
  }

  missing(): string[] {
    return [...this.expected].flatMap(([term, count]) => (this.found.get(term) === count ? [] : [term]));
  }
}

/**
 * A capital the engine gave its word (a sentence start) goes to the target term's first letter.
 * Text in capitals is styling, not grammar: the term stays as the glossary has it.
 */
function followCapital(translation: string, occurrence: string): string {
  if (!CAPITALISED.test(occurrence) || !LOWER_START.test(translation)) return translation;
  const first = String.fromCodePoint(translation.codePointAt(0)!);
  return first.toUpperCase() + translation.slice(first.length);
}
