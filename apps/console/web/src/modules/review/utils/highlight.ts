import { protectedTokens, type ProtectedToken } from '@platform/review/edit-check';
import { GlossaryMatcher, type DoNotTranslateTerm } from '@platform/translation-pipeline/text-spans';

export type Piece = { kind: 'text'; text: string } | { kind: ProtectedToken['kind']; text: string } | { kind: 'term'; text: string; term: string; translation: string };

/**
 * A text cut into plain text, its variables, markup and do-not-translate terms, and the glossary
 * terms it holds (the source's terms, or their binding translations in a translation); terms
 * inside tokens do not count.
 */
export function highlight(
  text: string,
  terms: readonly { term: string; translation: string }[],
  side: 'source' | 'translation',
  doNotTranslate: readonly DoNotTranslateTerm[] = [],
): Piece[] {
  const tokens = protectedTokens(text, doNotTranslate);
  const entries = terms.map(({ term, translation }) => (side === 'source' ? { term, translation } : { term: translation, translation: term }));
  const matches = entries.length === 0 ? [] : new GlossaryMatcher(entries).find(text).filter((match) => !tokens.some((token) => match.start < token.end && token.start < match.end));
  const marks = [
    ...tokens.map((token) => ({ start: token.start, end: token.end, piece: { kind: token.kind, text: token.text } as Piece })),
    ...matches.map((match) => {
      const [term, translation] = side === 'source' ? [match.term, match.translation] : [match.translation, match.term];
      return { start: match.start, end: match.end, piece: { kind: 'term', text: text.slice(match.start, match.end), term, translation } as Piece };
    }),
  ].sort((a, b) => a.start - b.start);

  const pieces: Piece[] = [];
  let last = 0;
  for (const mark of marks) {
    if (mark.start > last) pieces.push({ kind: 'text', text: text.slice(last, mark.start) });
    pieces.push(mark.piece);
    last = mark.end;
  }
  if (last < text.length) pieces.push({ kind: 'text', text: text.slice(last) });
  return pieces;
}
