import type { Piece } from '../segments/segment';
import type { TypographyRule, TypographySettings } from './translation-style';

/** Stands for a piece that is not translated text (markup, a variable, a kept term) while the rules read a segment's text. */
const OPAQUE = '\uFFFC';
const NARROW_NBSP = '\u202F';

/** Opening and closing quotation marks by language. */
const QUOTES: Record<string, readonly [string, string]> = {
  fr: ['«', '»'],
  es: ['«', '»'],
  it: ['«', '»'],
  pt: ['«', '»'],
  de: ['„', '“'],
  cs: ['„', '“'],
  sk: ['„', '“'],
  pl: ['„', '”'],
};
const APOSTROPHE_LANGUAGES = new Set(['en', 'fr', 'it', 'de', 'nl', 'pt', 'ga', 'mt']);

/** Straight quotes and English curly ones, as engines write them. */
const ANY_QUOTE = /["“”]/g;
/**
 * A run of ; : ! ? where a word or a sentence ends (not `10:30`), after a character that is not a
 * space or at the start of the text (which then follows markup: `<b>Note</b>: ...`).
 */
const HIGH_PUNCTUATION = new RegExp(`(^|[^\\s!?;:«${NARROW_NBSP}])[ \\u00A0${NARROW_NBSP}]*([;:!?]+)(?=$|[\\s»"”)\\].,${OPAQUE}])`, 'gu');
const AFTER_OPENING_GUILLEMET = /«[ \u00A0\u202F]*/g;
const BEFORE_CLOSING_GUILLEMET = /[ \u00A0\u202F]*»/g;
/** A sentence's end: ! or ?, then only closing quotes, brackets, pieces of markup and spaces. */
const EXCLAMATION_OR_QUESTION = new RegExp(`([!?])([\\s»"”’)\\]${OPAQUE}]*)$`, 'u');
const CLOSING_QUOTE = /[»"”]/u;
/** What a sentence may open with before its first word; an inverted mark goes after the spaces, and after the quotes when the mark is inside them. */
const LEADING_SPACE = /^\s*/u;
const SENTENCE_OPENING = /^[\s«"“„([]*/u;
/**
 * How a sentence starts: a capital, a digit or a piece of markup or a variable. Anything else (a
 * small letter, a colon) is the rest of a sentence that began before the text, as in the stretch
 * after an inline element (`<b>Warning</b>: ...`), which Apertium may translate on its own.
 */
const SENTENCE_START = new RegExp(`^[\\p{Lu}\\p{Lt}\\p{N}${OPAQUE}]`, 'u');
const APOSTROPHE = /(?<=\p{L}\p{M}*)'(?=\p{L})/gu;

interface Rule {
  name: TypographyRule;
  applies: (language: string) => boolean;
  apply: (text: string, language: string) => string;
}

const RULES: Rule[] = [
  { name: 'quotes', applies: (language) => language in QUOTES, apply: (text, language) => localQuotes(text, QUOTES[language]) },
  { name: 'french_spacing', applies: (language) => language === 'fr', apply: frenchSpacing },
  { name: 'inverted_marks', applies: (language) => language === 'es', apply: invertedMarks },
  { name: 'apostrophe', applies: (language) => APOSTROPHE_LANGUAGES.has(language), apply: (text) => text.replace(APOSTROPHE, '’') },
];

/**
 * A style profile's typography for one target language: applied to what an engine translated,
 * segment by segment, after the segment's markup, variables and kept terms are back in place. The
 * rules read the segment's translated text with each of those pieces as one opaque character, so
 * they can see a sentence across them (quotes around a `<b>`, a `!` after a `{name}`) and never
 * change a byte of them.
 */
export class Typography {
  private constructor(
    private readonly language: string,
    private readonly rules: readonly Rule[],
  ) {}

  /** Undefined when no rule that is on has a convention in `language`. */
  static for(language: string, settings: Readonly<TypographySettings>): Typography | undefined {
    const rules = RULES.filter((rule) => settings[rule.name] && rule.applies(language));
    return rules.length > 0 ? new Typography(language, rules) : undefined;
  }

  /** The pieces with the text of those in `translated` typeset; the others are the same objects, in the same order. */
  apply(pieces: readonly Piece[], translated: ReadonlySet<Piece>): Piece[] {
    const opaque = pieces.filter((piece) => !translated.has(piece));
    const text = pieces.map((piece) => (translated.has(piece) && 'text' in piece ? piece.text : OPAQUE)).join('');
    // A translation that holds the stand-in itself could not be split back safely: left as it is.
    if (text.split(OPAQUE).length !== opaque.length + 1) return [...pieces];
    const parts = this.rules.reduce((typeset, rule) => rule.apply(typeset, this.language), text).split(OPAQUE);
    return parts.flatMap((part, index) => [...(part ? [{ text: part }] : []), ...(index < opaque.length ? [opaque[index]] : [])]);
  }
}

/**
 * Straight and English quotes become the language's, paired in order. Left alone when the text
 * already uses the language's opening mark (the engine wrote them), or holds an odd number of
 * straight quotes, which cannot be paired for sure.
 */
function localQuotes(text: string, [open, close]: readonly [string, string]): string {
  if (text.includes(open) || (text.match(/"/g)?.length ?? 0) % 2 === 1) return text;
  let inside = false;
  return text.replace(ANY_QUOTE, (mark) => {
    inside = mark === '“' ? true : mark === '”' ? false : !inside;
    return inside ? open : close;
  });
}

/** French: a narrow no-break space before ; : ! ? and inside « », whatever space the engine put there. */
function frenchSpacing(text: string): string {
  return text
    .replace(HIGH_PUNCTUATION, `$1${NARROW_NBSP}$2`)
    .replace(AFTER_OPENING_GUILLEMET, `«${NARROW_NBSP}`)
    .replace(BEFORE_CLOSING_GUILLEMET, `${NARROW_NBSP}»`);
}

/**
 * Spanish: a sentence that ends in ! or ? and has no ¡ or ¿ gets one where it starts (after any
 * opening quote), if the text holds its start (see SENTENCE_START). Where the exclamation really begins inside a sentence cannot be told from the
 * marks; its start is the usual place.
 */
function invertedMarks(text: string): string {
  const sentences = new Intl.Segmenter('es', { granularity: 'sentence' });
  return Array.from(sentences.segment(text), ({ segment }) => {
    const end = EXCLAMATION_OR_QUESTION.exec(segment);
    if (!end) return segment;
    const opening = end[1] === '!' ? '¡' : '¿';
    if (segment.includes(opening)) return segment;
    // `Dijo: «¡Hola!»` but `¡«Hola»!`: the marks go on the same side of the quotes.
    const quoted = CLOSING_QUOTE.test(end[2]) ? Math.max(segment.lastIndexOf('«'), segment.lastIndexOf('“')) + 1 : 0;
    const at = quoted > 0 ? quoted : LEADING_SPACE.exec(segment)![0].length;
    const words = at + SENTENCE_OPENING.exec(segment.slice(at))![0].length;
    if (!SENTENCE_START.test(segment.slice(words))) return segment;
    const insert = quoted > 0 ? words : at;
    return segment.slice(0, insert) + opening + segment.slice(insert);
  }).join('');
}
