/**
 * The name of a language in that language, as CLDR gives it, with the first letter capitalised by
 * the language's own rules: the names head entries of a list ("Español", not "español").
 */
export function nativeLanguageName(code: string): string {
  const name = new Intl.DisplayNames([code], { type: 'language', fallback: 'code' }).of(code) ?? code;
  const [first = ''] = name;
  return first.toLocaleUpperCase(code) + name.slice(first.length);
}

const inEnglish = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

/** The English name of a language, as DeepL and LibreTranslate list them ("Spanish"). */
export const englishLanguageName = (code: string): string => inEnglish.of(code) ?? code;
