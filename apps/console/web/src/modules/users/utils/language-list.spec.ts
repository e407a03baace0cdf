import { describe, expect, it } from 'vitest';
import { parseLanguages } from './language-list';

describe('a typed list of languages', () => {
  it('takes codes separated by commas or spaces, in lower case', () => {
    expect(parseLanguages(' de, FR  fi,,')).toEqual(['de', 'fr', 'fi']);
    expect(parseLanguages('')).toEqual([]);
  });
});
