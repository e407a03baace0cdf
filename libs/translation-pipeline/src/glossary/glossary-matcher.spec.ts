import { describe, expect, it } from 'vitest';
import { GlossaryMatcher } from './glossary-matcher';

const termsIn = (matcher: GlossaryMatcher, text: string) => matcher.find(text).map((match) => [text.slice(match.start, match.end), match.translation]);

describe('GlossaryMatcher', () => {
  const matcher = new GlossaryMatcher([
    { term: 'sofa', translation: 'diván' },
    { term: 'Sofa bed', translation: 'sofá cama' },
    { term: 'Straße', translation: 'street' },
    { term: 'C++', translation: 'C++' },
    { term: '', translation: 'ignored' },
  ]);

  it('matches whole words only, in any case, longest first', () => {
    expect(termsIn(matcher, 'SOFA, sofas, a sofa bed, sofa-bed, the Sofa.')).toEqual([
      ['SOFA', 'diván'],
      ['sofa bed', 'sofá cama'],
      ['sofa', 'diván'],
      ['Sofa', 'diván'],
    ]);
  });

  it('respects word boundaries in every script', () => {
    expect(termsIn(matcher, 'Hauptstraße, STRASSE, die straße, Straßenbahn')).toEqual([['straße', 'street']]);
    expect(termsIn(matcher, 'sofaé, ésofa, sofa2, 2sofa')).toEqual([]);
  });

  it('escapes terms with regex characters', () => {
    expect(termsIn(matcher, 'I write C++ daily')).toEqual([['C++', 'C++']]);
  });

  it('of many terms sharing a first word, takes the longest that fits', () => {
    const shared = [
      ...Array.from({ length: 3000 }, (_, i) => ({ term: `contract clause ${i}`, translation: `cláusula ${i}` })),
      { term: 'contract', translation: 'contrato' },
      { term: 'contract clause', translation: 'cláusula' },
      { term: 'Contract clause 7', translation: 'duplicate, ignored' },
    ];
    const many = new GlossaryMatcher(shared);
    expect(termsIn(many, 'The contract clause 2999, contract clause 7, contract clause 30000, a contract, and contract clause 12a.')).toEqual([
      ['contract clause 2999', 'cláusula 2999'],
      ['contract clause 7', 'cláusula 7'],
      ['contract clause', 'cláusula'],
      ['contract', 'contrato'],
      ['contract clause', 'cláusula'],
    ]);
  });

  it('finds nothing with an empty glossary', () => {
    expect(new GlossaryMatcher([]).find('anything')).toEqual([]);
  });
});
