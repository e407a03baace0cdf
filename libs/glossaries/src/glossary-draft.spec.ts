import { refusal } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { checkGlossary, glossaryFromJson, type DraftEntry } from './glossary-draft';


const entry = (term: string, translations: Record<string, string>, at = 'entries[0]'): DraftEntry => ({ at, term, translations });

describe('checkGlossary', () => {
  it('trims, normalises to NFC, sorts the translations and collects the targets', () => {
    const content = checkGlossary({
      name: '  Product terms ',
      source: 'en',
      entries: [entry(' Cafe\u0301 ', { fr: ' café ', de: 'Café' }), entry('tea', { sv: 'te' }, 'entries[1]')],
    });
    expect(content).toEqual({
      name: 'Product terms',
      source: 'en',
      targets: ['de', 'fr', 'sv'],
      entries: [
        { term: 'Caf\u00e9', translations: { de: 'Café', fr: 'café' } },
        { term: 'tea', translations: { sv: 'te' } },
      ],
    });
    expect(Object.keys(content.entries[0].translations)).toEqual(['de', 'fr']);
  });

  it('names both places of a term that repeats in another case', () => {
    const error = refusal(() =>
      checkGlossary({ name: 'g', source: 'en', entries: [entry('Cloud', { de: 'Wolke' }, 'line 3'), entry('cLOUD', { de: 'Cloud' }, 'line 7')] }),
    );
    expect(error.getStatus()).toBe(422);
    expect(error.message).toBe('line 7: the term "cLOUD" repeats line 3 (terms are compared case-insensitively)');
  });

  it.each([
    [{ name: ' ', source: 'en', entries: [entry('a', { de: 'b' })] }, 'name must be 1 to 100 characters'],
    [{ name: 'g', source: 'xx', entries: [entry('a', { de: 'b' })] }, 'source "xx" is not one of the 24 official EU languages'],
    [{ name: 'g', source: 'en', entries: [] }, 'A glossary needs at least one entry'],
    [{ name: 'g', source: 'en', entries: [entry('  ', { de: 'b' }, 'line 4')] }, 'line 4: the term is empty'],
    [{ name: 'g', source: 'en', entries: [entry('a', {})] }, 'entries[0]: the term "a" has no translation'],
    [{ name: 'g', source: 'en', entries: [entry('a', { en: 'a' })] }, 'entries[0]: "en" is the source language of the glossary, not a target'],
    [{ name: 'g', source: 'en', entries: [entry('a', { ru: 'a' })] }, 'entries[0]: translation language "ru" is not one of the 24'],
    [{ name: 'g', source: 'en', entries: [entry('a', { de: ' ' })] }, 'entries[0]: the de translation is empty'],
    [{ name: 'g', source: 'en', entries: [entry('a'.repeat(201), { de: 'b' })] }, 'entries[0]: the term is longer than 200 characters'],
  ])('refuses %j with 422', (draft, message) => {
    const error = refusal(() => checkGlossary(draft));
    expect(error.getStatus()).toBe(422);
    expect(error.code).toBe('unsupported_language');
    expect(error.message).toContain(message);
  });

  it('refuses more than 5,000 entries as too large', () => {
    const entries = Array.from({ length: 5001 }, (_, i) => entry(`term ${i}`, { de: `Begriff ${i}` }));
    const error = refusal(() => checkGlossary({ name: 'g', source: 'en', entries }));
    expect(error.getStatus()).toBe(413);
    expect(error.code).toBe('payload_too_large');
    expect(checkGlossary({ name: 'g', source: 'en', entries: entries.slice(0, 5000) }).entries).toHaveLength(5000);
  });
});

describe('glossaryFromJson', () => {
  it('reads name, source and entries with their position', () => {
    expect(glossaryFromJson({ name: 'g', source: 'en', entries: [{ term: 'a', translations: { de: 'b' } }] })).toEqual({
      name: 'g',
      source: 'en',
      entries: [{ at: 'entries[0]', term: 'a', translations: { de: 'b' } }],
    });
  });

  it.each([
    [[], 'The request body must be an object'],
    [{ name: 'g', source: 'en', entries: [], extra: 1 }, 'The request body has an unknown field "extra"'],
    [{ name: 1, source: 'en', entries: [] }, 'name must be a string'],
    [{ name: 'g', source: 'en' }, 'entries must be an array'],
    [{ name: 'g', source: 'en', entries: ['a'] }, 'entries[0] must be an object'],
    [{ name: 'g', source: 'en', entries: [{ term: 'a' }] }, 'entries[0].translations must be an object'],
    [{ name: 'g', source: 'en', entries: [{ term: 'a', translations: { de: 5 } }] }, 'entries[0].translations.de must be a string'],
    [{ name: 'g', source: 'en', entries: [{ term: 'a', translations: {}, note: 'x' }] }, 'entries[0] has an unknown field "note"'],
  ])('refuses %j with 422', (body, message) => {
    const error = refusal(() => glossaryFromJson(body));
    expect(error.getStatus()).toBe(422);
    expect(error.message).toContain(message);
  });
});
