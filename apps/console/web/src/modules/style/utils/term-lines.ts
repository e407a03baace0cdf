import type { StyleProfile } from '../hooks/use-style-profiles';

type Terms = StyleProfile['do_not_translate'];

/** The profile's terms as two lists of lines, case-sensitive ones and those of any case, for two text areas. */
export function termLines(terms: Terms): { exact: string; anyCase: string } {
  const lines = (caseSensitive: boolean) =>
    terms
      .filter((term) => term.case_sensitive === caseSensitive)
      .map((term) => term.term)
      .join('\n');
  return { exact: lines(true), anyCase: lines(false) };
}

/** The two text areas back as terms: one a line, blank lines left out; the API checks the rest and names the term it refuses. */
export function termsOf(exact: string, anyCase: string): Terms {
  const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');
  return [...lines(exact).map((term) => ({ term, case_sensitive: true })), ...lines(anyCase).map((term) => ({ term, case_sensitive: false }))];
}
