import type { TextRange } from './variables';

/**
 * Text that engines would take for their own markup: tags (`<b>`, `</g>`, `<x id="0"/>`, and the
 * numbered ones of i18next's Trans component: `<1>`, `</1>`, `<0/>`), comments and character
 * references (`&amp;`). In plain text, JSON strings and decoded HTML
 * text they are literal characters, so they pass through the engine as opaque placeholders,
 * untranslated and not counted, and come back exactly as they were. Lengths are bounded so
 * that text full of stray `<` stays linear.
 */
const LOOKALIKE = /<\/?[A-Za-z][^<>]{0,2000}>|<\/?\d{1,3}\s*\/?>|<!--[\s\S]{0,2000}?-->|&(?:#\d{1,8}|#x[0-9A-Fa-f]{1,8}|[A-Za-z][A-Za-z0-9]{0,40});/g;

export function findMarkupLookalikes(text: string): TextRange[] {
  return [...text.matchAll(LOOKALIKE)].map((match) => ({ start: match.index, end: match.index + match[0].length }));
}
