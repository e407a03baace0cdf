const words = new Intl.Segmenter(undefined, { granularity: 'word' });

/** Format characters and the other invisible code points (soft hyphen, joiners, bidi marks, variation selectors). */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]+/gu;
/** Invisible characters between two letters or digits: what would glue two words for counting but not for engines. */
const GLUING_INVISIBLE = /(?<=[\p{L}\p{N}]\p{M}*)[\p{Cf}\p{Default_Ignorable_Code_Point}]+(?=[\p{L}\p{N}])/gu;
/**
 * Inside one UAX #29 word: connector punctuation (`_`, `‿`, `⁔`, `︳`, `＿`...) always separates
 * words; the MidLetter and MidNumLet characters (apostrophes, `.`, `:`, `·`, `‧`, `﹒`, `：`...)
 * separate words when letters stand on both sides (between digits they stay: 3.14); a combining
 * mark left on a Latin, Greek or Cyrillic letter after NFC belongs to no word of those scripts.
 */
const JOINT =
  /(\p{Pc}+|(?<=\p{L}\p{M}*)['.:\u00B7\u0387\u055F\u05F4\u2019\u2024\u2027\uFE13\uFE52\uFE55\uFF07\uFF0E\uFF1A](?=\p{L})|(?<=[\p{sc=Latin}\p{sc=Greek}\p{sc=Cyrillic}])\p{M}+)/u;
const MID_LETTER = /^['.:\u00B7\u0387\u055F\u05F4\u2019\u2024\u2027\uFE13\uFE52\uFE55\uFF07\uFF0E\uFF1A]$/u;
const WORD_CHARACTER = /[\p{L}\p{N}]/gu;
/**
 * Most words of EU languages: Latin, Greek or Cyrillic letters only, each one UTF-16 unit. Such a
 * word holds no joint, so it is one word of as many letters as units, without the regular
 * expressions below (they cost more than finding the word itself).
 */
const PLAIN_WORD = /^[A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F\u0386\u0388-\u038A\u038C\u038E-\u03A1\u03A3-\u03CE\u0400-\u0481\u048A-\u052F]+$/;
const PLAIN_NUMBER = /^[0-9]+$/;
const LETTER = /\p{L}/gu;
const ASCII = /^[^\u0080-\uFFFF]*$/;
// Inside a character class `-` would make a range; escapeRegExp leaves it as it is, `\xNN` never does.
const hex = (characters: string[]) => characters.map((character) => `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
/** The ASCII punctuation the segmenter keeps inside a word between `left` and `right` (asked, since locales differ). */
const joining = (left: string, right: string) =>
  [...'!"#$%&\'()*+,-./:;<=>?@[\\]^`{|}~'].filter((mark) => [...words.segment(`${left}${mark}${right}`)].length === 1);
/**
 * The segmenter's words in ASCII text, found in a twentieth of its time: letters, digits and `_` stay
 * together, and so do the marks it joins between two letters (`'`, `.`, `:`) or two digits (`,`,
 * `.`, `;`, `'`). A run of `_` alone comes out too; it has no letter or digit, so it counts nothing.
 */
const ASCII_WORD = new RegExp(
  `[A-Za-z0-9_](?:[A-Za-z0-9_]|(?<=[A-Za-z])[${hex(joining('a', 'b'))}](?=[A-Za-z])|(?<=[0-9])[${hex(joining('1', '2'))}](?=[0-9]))*`,
  'g',
);
/** Parts of at most this many letters are elisions, contractions or abbreviations when joined to a neighbour. */
const SHORT_PART = 2;
/**
 * The floor: one word per this many letters. No word of normal prose in an EU language is this
 * long; text glued together without any separator (which some engines still translate) is.
 */
export const LETTERS_PER_WORD_FLOOR = 25;

/**
 * The text engines receive: NFC (engines' dictionaries are composed; a decomposed accent would
 * split a word for them), without invisible characters between letters, which the engines take
 * for word breaks while Unicode word boundaries ignore them. Counting the same text keeps the
 * count equal to what is translated.
 */
export function engineText(text: string): string {
  return text.normalize('NFC').replace(GLUING_INVISIBLE, '');
}

/**
 * Words by Unicode word boundaries (UAX #29 via ICU, dictionary-based for scripts without
 * spaces such as Thai or Japanese) after removing invisible characters, with the joiners that
 * glue words treated as breaks (see `JOINT`). Contractions, elisions and abbreviations stay one
 * word: a part of one or two letters joined to its neighbour (don't, l'homme, z.B., EU:n), and a
 * run of single letters (U.S.A.). Numbers count once. Never fewer than one word per
 * `LETTERS_PER_WORD_FLOOR` letters.
 */
export function countWords(text: string): number {
  let count = 0;
  let letters = 0;
  const add = (word: string) => {
    if (PLAIN_WORD.test(word)) {
      count++;
      letters += word.length;
    } else if (PLAIN_NUMBER.test(word)) count++;
    else {
      count += countParts(word);
      letters += word.match(LETTER)?.length ?? 0;
    }
  };
  // ASCII is already NFC and holds no invisible characters.
  if (ASCII.test(text)) text.match(ASCII_WORD)?.forEach(add);
  else for (const segment of words.segment(text.normalize('NFC').replace(INVISIBLE, ''))) if (segment.isWordLike) add(segment.segment);
  return Math.max(count, Math.ceil(letters / LETTERS_PER_WORD_FLOOR));
}

function countParts(word: string): number {
  const pieces = word.split(JOINT);
  const parts = pieces.filter((_, index) => index % 2 === 0).map((part) => part.match(WORD_CHARACTER)?.length ?? 0);
  const glued = pieces.filter((_, index) => index % 2 === 1).map((joint) => MID_LETTER.test(joint));
  let count = 0;
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] === 0) continue;
    count++;
    let end = i;
    while (glued[end] && parts[end] === 1 && parts[end + 1] === 1) end++;
    if (end > i) i = end;
    else if (glued[i] && Math.min(parts[i], parts[i + 1]) <= SHORT_PART) i++;
  }
  return count;
}
