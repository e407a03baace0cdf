import type { MaskedText } from './formats/inline-sentence';
import { plainTextLayout } from './formats/plain-text.format';
import { engineText } from './segments/word-count';

export type { MaskedText } from './formats/inline-sentence';

/**
 * The sentences of a plain text (a `text`, or a JSON string value) in the form the pipeline looks
 * them up in memories, with each placeholder's source bytes: what a memory must store for a
 * lookup to find it. One normalisation for both sides, so that what reviewers teach and what
 * files import is found again.
 */
export function maskedSentences(text: string): MaskedText[] {
  return plainTextLayout(text).sentences.map(({ sentence }) => sentence.masked());
}

/**
 * Characters without which a plain text holds nothing the pipeline masks: markup and character
 * references (`<`, `&`), variables, template syntax and ICU (`{`, `%`, `$`, `@`), e-mail
 * addresses, URLs and identifiers (`@`, `_`, `/`, `.` or `:` before a letter or digit).
 */
const MASKABLE = /[<>&{}%$@_/\\]|[.:][\p{L}\p{N}]/u;

/**
 * A whole plain text as one masked unit: its sentences' forms between its line breaks. A one-line
 * text is exactly its sentence. A text with none of the characters that start something masked
 * is its own form, as the engines get its text, without reading it sentence by sentence: imports
 * of many plain entries take microseconds a side instead of a tenth of a millisecond.
 */
export function maskedText(text: string): MaskedText {
  return MASKABLE.test(text) ? plainTextLayout(text).masked() : { text: engineText(text), codes: {} };
}
