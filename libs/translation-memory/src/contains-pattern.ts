/** Characters with a meaning in a Postgres regular expression (ARE), escaped to stand for themselves. */
const SPECIAL = /[\\^$.|?*+()[\]{}]/g;

/**
 * A Postgres regular expression matching text that contains `text`, ignoring case, with the case
 * folding done here rather than by the database: `ILIKE` and `lower()` fold by the database's
 * LC_CTYPE, and a database created with `--locale=C` (as many are) folds only ASCII, so "ÖFFNEN"
 * would not find "öffnen". Each letter becomes a class of its case forms (`[öÖ]`); a form that
 * is not one character (ß → SS) stays out of the class.
 */
export function containsPattern(text: string): string {
  return [...text]
    .map((char) => {
      const forms = [...new Set([char, char.toLowerCase(), char.toUpperCase()])].filter((form) => [...form].length === 1);
      return forms.length > 1 ? `[${forms.join('')}]` : char.replace(SPECIAL, (special) => `\\${special}`);
    })
    .join('');
}
