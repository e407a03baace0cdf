import { describe, expect, it } from 'vitest';
import { DoNotTranslateMatcher } from './do-not-translate';

const found = (matcher: DoNotTranslateMatcher, text: string) => matcher.find(text).map(({ start, end }) => text.slice(start, end));

describe('DoNotTranslateMatcher', () => {
  const matcher = new DoNotTranslateMatcher([
    { term: 'Apple', caseSensitive: true },
    { term: 'Apple Pay', caseSensitive: true },
    { term: 'notion', caseSensitive: false },
    { term: 'Node.js', caseSensitive: true },
  ]);

  it('finds whole words only, the longest term first, as the text spells them', () => {
    expect(found(matcher, 'Pay with Apple Pay or Apple in NOTION, not Notional or Pineapple.')).toEqual(['Apple Pay', 'Apple', 'NOTION']);
    expect(found(matcher, 'Apple  Pay on Node.js')).toEqual(['Apple  Pay', 'Node.js']);
  });

  it('keeps a case-sensitive term to its spelling', () => {
    expect(found(matcher, 'an apple pay slip, node.js')).toEqual([]);
  });

  it('finds nothing without terms', () => {
    expect(new DoNotTranslateMatcher([]).find('Apple')).toEqual([]);
  });
});
