const words = new Intl.Segmenter(undefined, { granularity: 'word' });

/**
 * Words by Unicode word boundaries (UAX #29 via ICU, dictionary-based for scripts without
 * spaces such as Thai or Japanese): every word-like segment counts once, numbers included.
 */
export function countWords(text: string): number {
  let count = 0;
  for (const segment of words.segment(text)) {
    if (segment.isWordLike) count++;
  }
  return count;
}
