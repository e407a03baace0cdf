import { describe, expect, it } from 'vitest';
import { fromDeepLCode, toDeepLCode } from './deepl-language';

describe('DeepL language codes', () => {
  it.each([
    ['EN-GB', 'en'],
    ['en-us', 'en'],
    ['EN', 'en'],
    ['PT-BR', 'pt'],
    ['PT', 'pt'],
    ['de', 'de'],
  ])('reads target %s as %s', (code, language) => expect(fromDeepLCode('target_lang', code)).toBe(language));

  it.each(['JA', 'XX', 'EN-GB', 'english'])('refuses source %s naming the parameter', (code) => {
    expect(() => fromDeepLCode('source_lang', code)).toThrow(`Value for 'source_lang' not supported: ${code}`);
  });

  it('writes upper-case codes, the EU variants for English and Portuguese targets', () => {
    expect([toDeepLCode('en'), toDeepLCode('en', 'target'), toDeepLCode('pt', 'target'), toDeepLCode('de', 'target')]).toEqual(['EN', 'EN-GB', 'PT-PT', 'DE']);
  });
});
