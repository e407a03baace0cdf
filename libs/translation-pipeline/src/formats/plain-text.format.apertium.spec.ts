import { existsSync } from 'node:fs';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { loadConfig } from '@platform/service-kit';
import { corpusText } from '@platform/testing';
import { ApertiumEngine, EngineRouter } from '@platform/translation-engines';
import { afterAll, describe, expect, it } from 'vitest';
import { LanguageDetector } from '../detection/language-detector';
import { PricingConfig } from '../pricing/pricing.config';
import { TranslationPipeline } from '../translation-pipeline';
import type { TranslationRequest } from '../translation-request';

const MODES_DIR = '/usr/share/apertium/modes';
const installed = existsSync(MODES_DIR);

type Choice = Extract<MessageFormatElement, { options: unknown }>;
const isChoice = (element: MessageFormatElement): element is Choice => element.type === TYPE.plural || element.type === TYPE.select;
const inOrder = (choice: Choice) => Object.entries(choice.options).sort(([, a], [, b]) => a.location!.start.offset - b.location!.start.offset);
const read = (message: string) => parse(message, { captureLocation: true });

/**
 * A message's skeleton as the parser alone reads it: each argument and `#` with the bytes that
 * spell it, each choice with the bytes of its name, type, offset, selectors and the spacing
 * between them and, per message, the skeletons inside; the text of the messages is left out.
 * Within one message the order is free (a language may swap two arguments). Throws if the
 * message does not parse.
 */
function skeleton(message: string): string[] {
  const bytes = (from: number, to: number) => message.slice(from, to);
  const walk = (elements: MessageFormatElement[]): string[] =>
    elements
      .flatMap((element): string[] => {
        if (element.type === TYPE.literal) return [];
        const { start, end } = element.location!;
        if (!isChoice(element)) return [bytes(start.offset, end.offset)];
        let frame = '';
        let cursor = start.offset;
        for (const [, option] of inOrder(element)) {
          frame += `${bytes(cursor, option.location!.start.offset)}{${JSON.stringify(walk(option.value))}}`;
          cursor = option.location!.end.offset;
        }
        return [frame + bytes(cursor, end.offset)];
      })
      .sort();
  return walk(read(message));
}

/** The text of each message of each choice, by the path of selectors that leads to it. */
function messageTexts(message: string): Map<string, string> {
  const texts = new Map<string, string>();
  const walk = (elements: MessageFormatElement[], path: string) =>
    elements.filter(isChoice).forEach((choice) => {
      for (const [selector, option] of inOrder(choice)) {
        const at = `${path}/${choice.value} ${selector}`;
        texts.set(at, option.value.flatMap((element) => (element.type === TYPE.literal ? [element.value] : [])).join(''));
        walk(option.value, at);
      }
    });
  walk(read(message), '');
  return texts;
}

const hasChoice = (message: string) => {
  try {
    return read(message).some(isChoice);
  } catch {
    return false;
  }
};

describe.skipIf(!installed)('plain text and JSON with Apertium', () => {
  const engine = installed ? new ApertiumEngine({ modesDir: MODES_DIR }) : undefined!;
  const pipeline = new TranslationPipeline(new EngineRouter([engine]), loadConfig(PricingConfig, {}), new LanguageDetector());
  afterAll(() => engine?.close());

  const translate = async (texts: string[], target = 'es', format: TranslationRequest['format'] = 'text') => {
    const prepared = await pipeline.prepare({ texts, source: 'en', target, format, tier: 'basic' });
    return { prepared, translations: (await pipeline.run(prepared)).translations };
  };

  describe('ICU messages', () => {
    const multiLine = '{n, plural,\n  =0 {You have no new messages.\n  Check again later.}\n  one {You have one new message.}\n  other {You have # new messages.}\n}';

    it.each([
      ['es', '{count} {count, plural,\n one {on}\n other {on}\n}', '{count} {count, plural,\n one {En}\n other {En}\n}'],
      ['fr', '{count} {count, plural,\n one {on}\n other {on}\n}', '{count} {count, plural,\n one {En}\n other {En}\n}'],
      ['es', multiLine, '{n, plural,\n  =0 {Tienes no mensajes nuevos.\n  Control otra vez más tarde.}\n  one {Tienes uno mensaje nuevo.}\n  other {Tienes # mensajes nuevos.}\n}'],
      ['fr', multiLine, '{n, plural,\n  =0 {Tu as ne des messages nouveaux.\n  Contrôle une autre fois plus soir.}\n  one {Tu as un message nouveau.}\n  other {Tu # as des messages nouveaux.}\n}'],
    ])('translates the messages of a plural written over several lines, en→%s: %j', async (target, message, expected) => {
      const [translation] = (await translate([message], target)).translations;
      expect(translation).toBe(expected);
      expect(skeleton(translation)).toEqual(skeleton(message));
    });

    it.each([
      [
        'a plural nested in a select',
        '{gender, select,\n  female {{n, plural, =0 {She has no files} one {She has one file} other {She has # files}}}\n  other {{n, plural, =0 {They have no files} one {They have one file} other {They have # files}}}\n}',
        '{gender, select,\n  female {{n, plural, =0 {No tiene ninguna lima} one {Tiene uno archiva} other {Tiene # limas}}}\n  other {{n, plural, =0 {No tienen ninguna lima} one {Tienen uno archiva} other {Tienen # limas}}}\n}',
      ],
      ['selectordinal', 'It is your {n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} birthday', 'Es vuestro {n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} cumpleaños'],
      [
        'offset and exact selectors',
        '{n, plural, offset:1 =0 {Nobody came} =1 {Only you came} one {You and # other person came} other {You and # other people came}}',
        '{n, plural, offset:1 =0 {Nadie vino} =1 {Sólo viniste} one {Tú y # otra persona vinisteis} other {Tú y # otras personas vinisteis}}',
      ],
      [
        'typed arguments and a number skeleton',
        'You paid {amount, number, ::currency/EUR} on {d, date, short} for {n, plural, one {# book} other {# books}}',
        'Pagaste {amount, number, ::currency/EUR} encima {d, date, short} para {n, plural, one {# libro} other {# libros}}',
      ],
      ["apostrophes and a quoted literal", "{n, plural, one {The car of the man} other {The cars of the '{men}'}}", "{n, plural, one {El coche del hombre} other {Los coches de '{men}'}}"],
    ])('translates %s and keeps its skeleton', async (_, message, expected) => {
      const [translation] = (await translate([message])).translations;
      expect(translation).toBe(expected);
      expect(skeleton(translation)).toEqual(skeleton(message));
    });

    it('writes an apostrophe the translation adds doubled where the source doubles its own, and reads the source\'s as one', async () => {
      const doubled = "{n, plural, one {It''s the car of the man} other {It''s the cars of the men}}";
      const single = '{n, plural, one {The car of the man} other {The cars of the men}}';
      const translations = (await translate([doubled, single], 'fr')).translations;
      expect(translations).toEqual([
        "{n, plural, one {Il est la voiture de l''homme} other {Il est les voitures des hommes}}",
        "{n, plural, one {La voiture de l'homme} other {Les voitures des hommes}}",
      ]);
      expect(messageTexts(translations[0]).get('/n one')).toBe("Il est la voiture de l'homme");
      expect(translations.map(skeleton)).toEqual([skeleton(doubled), skeleton(single)]);
    });

    it('translates every plural and select message of Flutter Gallery in its ARB file, each with the source skeleton', async () => {
      const arb = corpusText('locales/flutter-gallery/intl_en.arb');
      const source = JSON.parse(arb) as Record<string, unknown>;
      const messages = Object.entries(source).flatMap(([key, value]) => (typeof value === 'string' && hasChoice(value) ? [[key, value] as const] : []));
      expect(messages).toHaveLength(8);

      const { translations } = await translate([arb], 'es', 'json');
      const translated = JSON.parse(translations[0]) as Record<string, string>;
      const unchanged: string[] = [];
      let count = 0;
      for (const [key, message] of messages) {
        expect(skeleton(translated[key]), key).toEqual(skeleton(message));
        const before = messageTexts(message);
        const after = messageTexts(translated[key]);
        expect([...after.keys()], key).toEqual([...before.keys()]);
        for (const [path, text] of before) if (after.get(path) === text) unchanged.push(`${key}${path}: ${text}`);
        count += before.size;
      }
      expect(count).toBe(21);
      // Units and a word the engine does not know are all that stays as it was.
      expect(unchanged).toEqual([
        'craneHours/hours =1: 1h',
        'craneHours/hours other: h',
        'craneMinutes/minutes =1: 1m',
        'craneMinutes/minutes other: m',
        'craneFlyStops/numberOfStops =0: Nonstop',
      ]);
      expect(translated.shrineScreenReaderCart).toBe('{quantity, plural, =0{Carro de compra, ningún elemento} =1{Carro de compra, 1 elemento} other{Carro de compra, {quantity} elementos}}');
    });

    it('keeps what looks like a plural but does not parse whole, braces and all, and translates the text around it', async () => {
      const texts = ['You have {n, plural, one {# file} other {# files} left', 'Files:\n{n, plural,\n one {# file}\n}\nDone'];
      expect((await translate(texts)).translations).toEqual(['Has {n, plural, one {# file} other {# files} left', 'Limas:\n{n, plural,\n one {# file}\n}\nHecho']);
    });

    it('counts the words of each message, not the skeleton, and bills them', async () => {
      const { prepared, translations } = await translate(['{n, plural, one {# file} other {# files}}', 'You have {n, plural, one {# new message} other {# new messages}} left']);
      expect(prepared.wordsPerText).toEqual([2, 7]);
      expect(prepared.words).toBe(9);
      expect(prepared.costCents).toBe(1);
      expect(translations[0]).toBe('{n, plural, one {# lima} other {# limas}}');
    });
  });

  describe("i18next's numbered Trans tags", () => {
    it.each(['es', 'fr'])('keeps <1>…</1> and <0/> as inline elements with their words, en→%s', async (target) => {
      const text = 'Share the identifier <1>communityName</1>. You can also use <2>lemmy-federate.com</2>.<0/>';
      const { translations, prepared } = await translate([text], target);
      expect(translations[0].match(/<\/?\d\/?>/g)).toEqual(['<1>', '</1>', '<2>', '</2>', '<0/>']);
      expect(translations[0]).toContain('<1>communityName</1>');
      expect(translations[0]).toContain('<2>lemmy-federate.com</2>');
      // `lemmy-federate.com` is two words, as Unicode segmentation counts it: `lemmy` and the domain name.
      expect(prepared.words).toBe(10);
    });
  });

  describe('line breaks', () => {
    it.each([['\n'], ['\r\n'], ['\r'], ['\u2028'], ['\u2029']])('translates each line on its own and keeps the break %j', async (linebreak) => {
      expect((await translate([`Close${linebreak}Cut`])).translations).toEqual([`Cercano${linebreak}Corte`]);
    });

    it('gives back every break and the whitespace around it', async () => {
      const [translation] = (await translate(['Welcome back.\u2029Your account is ready.\r\n  Sign in  \rto continue\n\n\nThanks'])).translations;
      expect(translation).toBe('Bienvenido atrás.\u2029Vuestra cuenta está a punto.\r\n  Signo en  \rPara continuar\n\n\nGracias');
    });

    it('gives back values joined with "\\n#__#\\n" each translated between the same separators', async () => {
      const values = ['Close', 'Cut', 'Open the file', 'Save', 'Good morning', 'The red car', 'Read the book. Then close it.'];
      const { translations } = await translate([values.join('\n#__#\n'), ...values]);
      expect(translations[0].split('\n#__#\n')).toEqual(translations.slice(1));
    });
  });
});
