import { describe, expect, it } from 'vitest';
import { RenderedTerms } from './term-renderings';

const sofa = { term: 'sofa', translation: 'diván' };

describe('RenderedTerms', () => {
  it('replaces whole-word renderings in any case, giving a capitalised one a capital but leaving text in capitals alone', () => {
    const rendered = new RenderedTerms([sofa, sofa, sofa], new Map([['sofa', 'Sofá']]));
    expect(rendered.replace('Sofá y sofá, SOFÁ; sofás.')).toBe('Diván y diván, diván; sofás.');
    expect(rendered.missing()).toEqual([]);
  });

  it('names a term whose rendering is found more or less often than the term occurs', () => {
    const fewer = new RenderedTerms([sofa, sofa], new Map([['sofa', 'sofá']]));
    fewer.replace('el sofá, los sofás');
    expect(fewer.missing()).toEqual(['sofa']);
    const more = new RenderedTerms([sofa], new Map([['sofa', 'sofá']]));
    more.replace('el sofá y el sofá');
    expect(more.missing()).toEqual(['sofa']);
  });

  it('does not look for a rendering two terms share, nor for one that is blank or holds markup', () => {
    const shared = new RenderedTerms([sofa, { term: 'couch', translation: 'canapé' }], new Map([['sofa', 'sofá'], ['couch', 'sofá']]));
    expect(shared.replace('un sofá')).toBe('un sofá');
    expect(shared.missing()).toEqual(['sofa', 'couch']);
    for (const rendering of [undefined, ' ', '<x id="1"/>', '...']) {
      const unusable = new RenderedTerms([sofa], new Map([['sofa', rendering]]));
      unusable.replace('un sofá ...');
      expect(unusable.missing()).toEqual(['sofa']);
    }
  });

  it('prefers the longer rendering where one contains another', () => {
    const rendered = new RenderedTerms([sofa, { term: 'sofa bed', translation: 'sofá cama' }], new Map([['sofa', 'sofá'], ['sofa bed', 'cama de sofá']]));
    expect(rendered.replace('una cama de  sofá y un sofá')).toBe('una sofá cama y un diván');
    expect(rendered.missing()).toEqual([]);
  });
});
