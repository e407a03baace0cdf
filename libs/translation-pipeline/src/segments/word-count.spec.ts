import { describe, expect, it } from 'vitest';
import { countWords, engineText, LETTERS_PER_WORD_FLOOR } from './word-count';

/** Words of three letters or more (shorter ones may join a neighbour: see below). */
const SLEEPING = 'The cat was sleeping the whole afternoon upon the old red sofa near the window while the small dog waited patiently beside the door for the children returning home';
const WORDS = SLEEPING.split(' ');

/** Invisible characters, removed before counting: what they glue reaches the engine glued too. */
const INVISIBLE: Record<string, string[]> = {
  'format (Cf)': ['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u00AD', '\u180E', '\u200E', '\u200F', '\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u2061', '\u2062', '\u2063', '\u2064', '\u206A', '\u206F'],
  'other default ignorable': ['\u034F', '\uFE00', '\uFE0F', '\u180B', '\u{E0001}', '\u{E0100}'],
};

/** Visible characters that Unicode word boundaries let glue two words together. */
const JOINERS: Record<string, string[]> = {
  'connector punctuation (Pc, ExtendNumLet)': ['_', '\u203F', '\u2040', '\u2054', '\uFE33', '\uFE34', '\uFE4D', '\uFE4E', '\uFE4F', '\uFF3F'],
  'MidLetter': [':', '\u00B7', '\u0387', '\u055F', '\u05F4', '\u2027', '\uFE13', '\uFE55', '\uFF1A'],
  'MidNumLet': ['.', '\u2019', '\u2024', '\uFE52', '\uFF07', '\uFF0E'],
  'Single_Quote': ["'"],
  'combining marks (Extend)': ['\u0301\u0301', '\u0308\u0301', '\u20DD'],
};

const codePoint = (text: string) => `U+${text.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

describe('countWords', () => {
  it.each([
    ['Good morning', 2],
    ['  Hello,   world!  ', 2],
    ['東京は日本の首都です。', 6],
    ['สวัสดีครับ ยินดีต้อนรับ', 4],
    ['Привет, как дела?', 3],
    ['Καλημέρα κόσμε', 2],
    ['مرحبا بالعالم', 2],
    ['e-mail costs 3.5 euros', 5],
    ['... !!! ---', 0],
    ['', 0],
  ])('%s has %i words', (text, words) => {
    expect(countWords(text)).toBe(words);
  });

  describe.each(Object.entries(JOINERS))('%s between words', (_, joiners) => {
    it.each(joiners.map((joiner) => [codePoint(joiner), joiner]))('%s does not glue words together', (__, joiner) => {
      expect(countWords(WORDS.join(joiner))).toBe(WORDS.length);
    });
  });

  describe.each(Object.entries(INVISIBLE))('%s between words', (_, joiners) => {
    it.each(joiners.map((joiner) => [codePoint(joiner), joiner]))('%s is removed, for the engine too, and the floor counts the glued text', (__, joiner) => {
      const text = WORDS.join(joiner);
      expect(engineText(text)).toBe(WORDS.join(''));
      expect(countWords(text)).toBe(Math.ceil(WORDS.join('').length / LETTERS_PER_WORD_FLOOR));
    });
  });

  it('lets a joiner save at most one word per word of one or two letters', () => {
    const words = 'The cat is sleeping on the red sofa in a sunny room'.split(' ');
    expect(countWords(words.join("'"))).toBe(words.length - 4);
    expect(countWords(words.join(':'))).toBe(words.length - 4);
  });

  it.each([
    // Contractions, elisions and abbreviations stay one word; longer parts count on their own.
    ["don't l'homme it’s we're I'll", 5],
    ["qu'il d'eau c'è l'anno m'athair d'fhág O'Brien", 7],
    ['auto’s geht’s zo’n', 3],
    ['z.B. e.g. U.S.A. Ph.D. EU:n S:t', 6],
    ["aujourd'hui dell'arte rock'n'roll", 6],
    ['www.example.com snake_case_name __init__', 7],
    // Numbers stay one word.
    ['3.14 1,000 1.000,50 12:30 v1.2.3', 6],
    // Invisible characters inside one word do not split it.
    ['Silben\u00ADtrennung Auf\u200Clage', 2],
    ['cafe\u0301 naïve', 2],
  ])('%s has %i words', (text, words) => {
    expect(countWords(text)).toBe(words);
  });

  it('counts text glued without any separator at least one word per 25 letters', () => {
    const glued = SLEEPING.replaceAll(' ', '');
    expect(countWords(glued)).toBe(Math.ceil(glued.length / LETTERS_PER_WORD_FLOOR));
    expect(countWords('Rechtsschutzversicherungsgesellschaften')).toBe(2);
    expect(countWords('Bundesverfassungsgericht Kraftfahrzeughaftpflicht')).toBe(2);
  });

  it.each([
    ['Greek', 'Καλημέρα', 8],
    ['Cyrillic', 'Здравствуйте', 12],
    ['Latin with diacritics', 'Łódźżółć', 8],
    ['letters beyond one UTF-16 unit', '𝐀𝐁𝐂', 3],
    ['letters and digits', 'A4B', 2],
  ])('counts every letter of glued %s words for the floor', (_, word, letters) => {
    expect(countWords(word.repeat(20))).toBe(Math.ceil((20 * letters) / LETTERS_PER_WORD_FLOOR));
  });

  // Real prose in the official EU languages, with the counts of a word processor.
  it.each([
    ['bg', 'Всички хора се раждат свободни и равни по достойнство и права.', 11],
    ['cs', 'Všichni lidé rodí se svobodní a sobě rovní co do důstojnosti a práv.', 13],
    ['da', 'Alle mennesker er født frie og lige i værdighed og rettigheder.', 11],
    ['de', 'Alle Menschen sind frei und gleich an Würde und Rechten geboren, z.B. die Bundesverfassungsgerichtsentscheidung.', 14],
    ['el', 'Όλοι οι άνθρωποι γεννιούνται ελεύθεροι και ίσοι στην αξιοπρέπεια και τα δικαιώματα.', 12],
    ['en', "All human beings are born free and equal in dignity and rights. They don't lose them.", 16],
    ['es', 'Todos los seres humanos nacen libres e iguales en dignidad y derechos.', 12],
    ['et', 'Kõik inimesed sünnivad vabadena ja võrdsetena oma väärikuselt ning õigustelt.', 10],
    ['fi', 'Kaikki ihmiset syntyvät vapaina ja tasavertaisina arvoltaan ja oikeuksiltaan, myös EU:n kansalaiset.', 12],
    ['fr', "Tous les êtres humains naissent libres et égaux en dignité et en droits. L'homme qu'il voit.", 16],
    ['ga', "Saolaítear gach duine den chine daonna saor agus comhionann i ndínit agus i gcearta. B'fhéidir d'fhág sé.", 17],
    ['hr', 'Sva ljudska bića rađaju se slobodna i jednaka u dostojanstvu i pravima.', 12],
    ['hu', 'Minden emberi lény szabadon születik és egyenlő méltósága és joga van.', 11],
    ['it', "Tutti gli esseri umani nascono liberi ed eguali in dignità e diritti. C'è l'amore.", 14],
    ['lt', 'Visi žmonės gimsta laisvi ir lygūs savo orumu ir teisėmis.', 10],
    ['lv', 'Visi cilvēki piedzimst brīvi un vienlīdzīgi savā pašcieņā un tiesībās.', 10],
    ['mt', "Il-bnedmin kollha jitwieldu ħielsa u ugwali fid-dinjità u d-drittijiet. Ta' kuljum.", 14],
    ['nl', "Alle mensen worden vrij en gelijk in waardigheid en rechten geboren. Twee auto's.", 13],
    ['pl', 'Wszyscy ludzie rodzą się wolni i równi pod względem swej godności i swych praw.', 14],
    ['pt', 'Todos os seres humanos nascem livres e iguais em dignidade e em direitos.', 13],
    ['ro', 'Toate ființele umane se nasc libere și egale în demnitate și în drepturi.', 13],
    ['sk', 'Všetci ľudia sa rodia slobodní a rovní v dôstojnosti aj v právach.', 12],
    ['sl', 'Vsi ljudje se rodijo svobodni in imajo enako dostojanstvo in enake pravice.', 12],
    ['sv', 'Alla människor är födda fria och lika i värde och rättigheter. EU:s medlemmar.', 13],
  ])('counts %s prose as before: %i words', (_, text, words) => {
    expect(countWords(text)).toBe(words);
  });

  it('counts ASCII text as the Unicode segmenter does', () => {
    // A zero-width space is removed before counting, but it sends the same text through the segmenter.
    const throughSegmenter = (text: string) => countWords(`${text}\u200B`);
    const marks = [..." .,;:'\"_-!?()/@#&*+=<>[]{}|\\`~^$%\n\t\u0000\u007F"];
    const random = seeded(7);
    for (let n = 0; n < 20_000; n++) {
      let text = '';
      for (let length = 1 + Math.floor(random() * 30); length > 0; length--) {
        text += random() < 0.6 ? 'aZe19'[Math.floor(random() * 5)] : marks[Math.floor(random() * marks.length)];
      }
      expect(countWords(text), JSON.stringify(text)).toBe(throughSegmenter(text));
    }
    for (const text of ["e.g. 3:15, 1,000.5; don't a:b 1;2 x_y __ _ U.S.A. 4'5 a.1 1.a"]) expect(countWords(text)).toBe(throughSegmenter(text));
  });
});

/** A repeatable stream of numbers in [0, 1) (mulberry32). */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('engineText', () => {
  it('removes invisible characters between letters and composes accents, keeping those elsewhere', () => {
    expect(engineText('The\u2060cat\u200Bis\u00ADsleeping')).toBe('Thecatissleeping');
    expect(engineText('cafe\u0301')).toBe('café');
    expect(engineText('\uFEFFHello \u200Fworld\u200F. 👨\u200D👩\u200D👧 1\uFE0F\u20E3')).toBe('\uFEFFHello \u200Fworld\u200F. 👨\u200D👩\u200D👧 1\uFE0F\u20E3');
  });

  it('counts the same words in the text engines receive', () => {
    const text = 'The\u2060cat\u200Dis_sleeping on:the\u00B7red sofa';
    expect(countWords(engineText(text))).toBe(countWords(text));
  });
});
