/**
 * The stand-ins' whole "translation model": a few fixed phrases per direction, so tests can assert
 * exact outputs. Words it does not know pass through; markup is never touched.
 */
const PHRASES: Record<string, Record<string, string>> = {
  'en>de': {
    'The cat is sleeping': 'Die Katze schläft',
    'Good morning': 'Guten Morgen',
    Hello: 'Hallo',
    hello: 'hallo',
    world: 'Welt',
    cat: 'Katze',
  },
  'de>en': {
    'Die Katze schläft': 'The cat is sleeping',
    'Guten Morgen': 'Good morning',
    Hallo: 'Hello',
    Welt: 'world',
  },
  'en>fr': {
    'The cat is sleeping': 'Le chat dort',
    Hello: 'Bonjour',
    world: 'monde',
  },
};

const patterns = new Map(
  Object.entries(PHRASES).map(([direction, phrases]) => {
    // Longest first, so a sentence wins over the words inside it.
    const alternatives = Object.keys(phrases)
      .sort((a, b) => b.length - a.length)
      .map((phrase) => phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    return [direction, new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'gu')];
  }),
);

/** Translates plain text from `source` to `target` (ISO 639-1). */
export function translatePhrases(text: string, source: string, target: string): string {
  const direction = `${source}>${target}`;
  const pattern = patterns.get(direction);
  return pattern ? text.replace(pattern, (phrase) => PHRASES[direction][phrase]) : text;
}

/** Translates the text between tags and leaves every tag exactly as it came. */
export function translateMarkup(markup: string, source: string, target: string): string {
  return markup
    .split(/(<[^>]*>)/)
    .map((part) => (part.startsWith('<') ? part : translatePhrases(part, source, target)))
    .join('');
}
