import { createHash } from 'node:crypto';

/**
 * The catalog's own normalisation, on top of `memoryKey`: interface strings of different
 * programs differ in what a translator keeps from the source anyway. A key loses its
 * accelerator (`_Save`, `&Open`, `~Save`, `Save (_S)`), its trailing ellipsis, colon or full stop
 * and, for matching, its case; what the query had is put back into the answer (`restore`): its
 * initial's case, capitals throughout, accelerator and suffix.
 *
 * Everything here works on masked text (XML-escaped, `<x id="N"/>` placeholders), the form
 * of both the pipeline's keys and the catalog's entries, so the two meet.
 */

export type AcceleratorMarker = '_' | '~' | '&amp;';
export type Suffix = '…' | '...' | ':' | '.';

/** What normalisation took from a key, to be given back to the answer. */
export interface KeyForm {
  accelerator?: AcceleratorMarker;
  suffix?: Suffix;
  /** The case of the key's first character when it is a letter. */
  initial?: 'upper' | 'lower';
  /** Every letter in capitals, two or more of them (`SETTINGS`, `NEW POST`). */
  capitals?: true;
}

export interface NormalKey {
  /** The key without accelerator and trailing punctuation, case kept. */
  key: string;
  /** SHA-256 of the key in lower case: what lookups compare. */
  hash: Buffer;
  form: KeyForm;
}

/** An accelerator marker before a letter or digit. Placeholders never hold these characters. */
const MARKER = /(_|~|&amp;)(?=[\p{L}\p{N}])/gu;
/** Where `&` marks an accelerator (Qt, Windows): at the start of a word, never inside one as in R&D. */
const AMPERSAND_AT_WORD_START = /(?<![\p{L}\p{N}])&amp;(?=[\p{L}\p{N}])/u;
/** snake_case: an identifier, not a label with an accelerator. */
const IDENTIFIER = /^[a-z0-9]+(?:_[a-z0-9]+)+$/;
/** East Asian catalogs' accelerator after the label: `保存 (_S)`, `Open (&O)`. */
const TRAILING_ACCELERATOR = /\s*\((?:_|~|&amp;)[\p{L}\p{N}]\)(?=(?:\s*(?:…|\.\.\.|:))?$)/u;
/** A trailing ellipsis, colon or full stop, with any space before it (French `Nom :`). */
const SUFFIX = /[\s\u00a0\u202f]*(…|\.\.\.|:|\.)$/u;
const FIRST_LETTER = /\p{L}/u;
/** A placeholder or an entity of the masked form: never a letter to change the case of. */
const CODE = /<[^>]*>|&[#\w]+;/g;
/** Splits masked text around its codes, which land at the odd indexes. */
const AROUND_CODES = new RegExp(`(${CODE.source})`);

/** The string without its accelerator, and which marker it had; a string with several markers keeps them (they are text). */
function withoutAccelerator(text: string): { text: string; accelerator?: AcceleratorMarker } {
  const trailing = text.replace(TRAILING_ACCELERATOR, '');
  if (trailing !== text) return { text: trailing };
  const markers = [...text.matchAll(MARKER)];
  if (markers.length !== 1) return { text };
  const marker = markers[0][1] as AcceleratorMarker;
  if (marker === '&amp;' && !AMPERSAND_AT_WORD_START.test(text)) return { text };
  if (marker === '_' && IDENTIFIER.test(text)) return { text };
  const at = markers[0].index;
  return { text: text.slice(0, at) + text.slice(at + marker.length), accelerator: marker };
}

/** The string without its trailing ellipsis or colon, and which it was; a string that is nothing else keeps it. */
function withoutSuffix(text: string): { text: string; suffix?: Suffix } {
  const match = SUFFIX.exec(text);
  if (!match || match.index === 0) return { text };
  return { text: text.slice(0, match.index), suffix: match[1] as Suffix };
}

function initialOf(text: string): KeyForm['initial'] {
  const first = text[0];
  if (!first || !FIRST_LETTER.test(first)) return undefined;
  if (first !== first.toLowerCase()) return 'upper';
  return first !== first.toUpperCase() ? 'lower' : undefined;
}

function capitalsOf(text: string): KeyForm['capitals'] {
  const letters = text.replace(CODE, ' ').match(/\p{L}/gu) ?? [];
  return letters.length >= 2 && letters.every((letter) => letter !== letter.toLowerCase()) ? true : undefined;
}

export const keyHash = (key: string): Buffer => createHash('sha256').update(key.toLowerCase(), 'utf8').digest();

/** A `memoryKey` in the catalog's normal form. */
export function normaliseKey(memoryKey: string): NormalKey {
  const bare = withoutAccelerator(memoryKey);
  const cut = withoutSuffix(bare.text);
  const key = cut.text.trim();
  return { key, hash: keyHash(key), form: { accelerator: bare.accelerator, suffix: cut.suffix, initial: initialOf(key), capitals: capitalsOf(key) } };
}

/**
 * A catalog translation in the normal form: no accelerator, and no trailing ellipsis or colon,
 * whether its source had one or the translator added it (the query's own goes back on). A full
 * stop goes only where the source had one too: elsewhere it may end an abbreviation (`Nr.`).
 */
export function normaliseTarget(target: string, source: KeyForm): string {
  // Trimmed first: a prompt's `Old password: ` → `Contraseña antigua: ` ends in its colon all the same.
  const bare = withoutAccelerator(target.trim()).text;
  const cut = withoutSuffix(bare);
  return (cut.suffix && (cut.suffix !== '.' || source.suffix === '.') ? cut.text : bare).trim();
}

/** Languages whose typography puts a no-break space before a colon. */
const SPACED_COLON = new Set(['fr']);
/** Languages that capitalise nouns: a capital at the start of a translation may be the noun's own. */
const CAPITALISED_NOUNS = new Set(['de']);

const upperFirst = (text: string, at: number) => text.slice(0, at) + text[at].toUpperCase() + text.slice(at + 1);
const lowerFirst = (text: string, at: number) => text.slice(0, at) + text[at].toLowerCase() + text.slice(at + 1);
const inCapitals = (masked: string, lang: string) =>
  masked
    .split(AROUND_CODES)
    .map((part, i) => (i % 2 ? part : part.toLocaleUpperCase(lang)))
    .join('');

/** Index of the first letter outside placeholders and entities. */
function firstLetterIndex(masked: string): number {
  let inside = false;
  for (let i = 0; i < masked.length; i++) {
    const char = masked[i];
    if (char === '<' || char === '&') inside = true;
    else if (inside && (char === '>' || char === ';')) inside = false;
    else if (!inside && FIRST_LETTER.test(char)) return i;
  }
  return -1;
}

/**
 * A stored translation (of the catalog key `matched`) made to answer the query: in capitals
 * where the query is and the key was not; else the query's initial case where the translation
 * followed its source's (also after an opening `¿`, `¡` or quote); its accelerator before the
 * first letter, its trailing ellipsis (as the query wrote it), full stop, or colon (as the
 * target language writes one).
 */
export function restore(target: string, query: KeyForm, matched: KeyForm, targetLang: string): string {
  let text = target;
  const letter = firstLetterIndex(text);
  const word = text.slice(Math.max(letter, 0));
  // Only punctuation before the first letter, never a placeholder or an entity.
  const opensWithLetter = letter >= 0 && !/[\p{L}\p{N}<&]/u.test(text.slice(0, letter));
  if (query.capitals && !matched.capitals) text = inCapitals(text, targetLang);
  else if (opensWithLetter && query.initial && matched.initial && query.initial !== matched.initial) {
    const followsSource = initialOf(word) === matched.initial;
    // A lower-case source word may still become a capitalised noun, and an acronym stays as it is.
    const acronym = /^\p{Lu}{2}/u.test(word);
    if (followsSource && query.initial === 'upper') text = upperFirst(text, letter);
    else if (followsSource && !acronym && !CAPITALISED_NOUNS.has(targetLang)) text = lowerFirst(text, letter);
  }
  if (query.accelerator && letter >= 0) text = text.slice(0, letter) + query.accelerator + text.slice(letter);
  if (query.suffix && !SUFFIX.test(text)) text += query.suffix === ':' && SPACED_COLON.has(targetLang) ? '\u00a0:' : query.suffix;
  return text;
}
