import { describe, expect, it } from 'vitest';
import { countWords } from './word-count';

describe('countWords', () => {
  it.each([
    ['Good morning', 2],
    ['  Hello,   world!  ', 2],
    ['東京は日本の首都です。', 6],
    ['สวัสดีครับ ยินดีต้อนรับ', 4],
    ['Привет, как дела?', 3],
    ['Καλημέρα κόσμε', 2],
    ['مرحبا بالعالم', 2],
    ["don't l'homme", 2],
    ['e-mail costs 3.5 euros', 5],
    ['... !!! ---', 0],
    ['', 0],
  ])('%s has %i words', (text, words) => {
    expect(countWords(text)).toBe(words);
  });
});
