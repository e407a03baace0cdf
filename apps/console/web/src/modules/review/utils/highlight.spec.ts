import { describe, expect, it } from 'vitest';
import { highlight } from './highlight';

const terms = [{ term: 'sofa', translation: 'dīvāns' }];

describe('highlighting a task\u2019s texts', () => {
  it('marks variables, markup and the source\u2019s glossary terms', () => {
    expect(highlight('Hello {name}, the <b class="sofa">sofa</b>.', terms, 'source')).toEqual([
      { kind: 'text', text: 'Hello ' },
      { kind: 'variable', text: '{name}' },
      { kind: 'text', text: ', the ' },
      { kind: 'markup', text: '<b class="sofa">' },
      { kind: 'term', text: 'sofa', term: 'sofa', translation: 'dīvāns' },
      { kind: 'markup', text: '</b>' },
      { kind: 'text', text: '.' },
    ]);
  });

  it('marks the binding translations in a translation, in any case', () => {
    expect(highlight('Dīvāns ir sarkans.', terms, 'translation')).toEqual([
      { kind: 'term', text: 'Dīvāns', term: 'sofa', translation: 'dīvāns' },
      { kind: 'text', text: ' ir sarkans.' },
    ]);
  });
});
