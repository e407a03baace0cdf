import { describe, expect, it } from 'vitest';
import { chrF, sentenceChrF } from './chrf';

describe('chrF', () => {
  it('is 100 for the reference itself and 0 for nothing in common, whitespace left out', () => {
    expect(sentenceChrF('The cat sat on the mat.', 'The cat sat on the mat.')).toBe(100);
    expect(sentenceChrF('Thecat  sat', 'The cat sat')).toBe(100);
    expect(sentenceChrF('xyz', 'abc')).toBe(0);
    expect(sentenceChrF('', 'abc')).toBe(0);
  });

  it('averages precision and recall over the orders both sides have (worked by hand)', () => {
    // Orders 1 to 3: P = R = 2/3, 1/2, 0; orders 4 to 6 have no n-gram. F = P = R = 7/18.
    expect(sentenceChrF('abc', 'abd')).toBeCloseTo((100 * 7) / 18, 10);
    // Order 1: P 1, R 1/2; order 2: P 1, R 1/3. P = 1, R = 5/12; F2 = 5PR / (4P + R) = 25/53.
    expect(sentenceChrF('ab', 'abcd')).toBeCloseTo((100 * 25) / 53, 10);
    // The other way round: P = 5/12, R = 1, F2 = 25/32. Recall weighs more, so saying too much costs less than saying too little.
    expect(sentenceChrF('abcd', 'ab')).toBeCloseTo((100 * 25) / 32, 10);
  });

  it('sums the counts over the corpus before scoring, rather than averaging sentence scores', () => {
    const corpus = chrF(['abc', 'ab'], ['abd', 'abcd']);
    // Order 1: 5 hypothesis, 7 reference, 4 shared; order 2: 3, 5, 2; order 3: 1, 3, 0.
    const precision = (4 / 5 + 2 / 3 + 0) / 3;
    const recall = (4 / 7 + 2 / 5 + 0) / 3;
    expect(corpus).toBeCloseTo((100 * 5 * precision * recall) / (4 * precision + recall), 10);
    expect(corpus).not.toBeCloseTo((sentenceChrF('abc', 'abd') + sentenceChrF('ab', 'abcd')) / 2, 3);
  });

  it('counts characters, not UTF-16 units, and refuses lists of different lengths', () => {
    expect(sentenceChrF('𝒳y', '𝒳y')).toBe(100);
    expect(sentenceChrF('Größe', 'Grösse')).toBeGreaterThan(0);
    expect(() => chrF(['a'], [])).toThrow('1 hypotheses for 0 references');
  });
});
