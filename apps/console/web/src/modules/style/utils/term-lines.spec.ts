import { describe, expect, it } from 'vitest';
import { termLines, termsOf } from './term-lines';

describe('term lines', () => {
  it('splits terms by case sensitivity and reads them back, blank lines left out', () => {
    const terms = [
      { term: 'Apple Pay', case_sensitive: true },
      { term: 'notion', case_sensitive: false },
      { term: 'Windows', case_sensitive: true },
    ];
    expect(termLines(terms)).toEqual({ exact: 'Apple Pay\nWindows', anyCase: 'notion' });
    expect(termsOf('Apple Pay\n\nWindows\n', 'notion')).toEqual([terms[0], terms[2], terms[1]]);
    expect(termsOf('', '  ')).toEqual([]);
  });
});
