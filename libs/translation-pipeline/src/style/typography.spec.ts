import { describe, expect, it } from 'vitest';
import type { Piece } from '../segments/segment';
import { DEFAULT_TYPOGRAPHY } from './translation-style';
import { Typography } from './typography';

const NNBSP = '\u202F';

/** Typesets `parts`: strings are translated text, `{raw}` and `{text}` objects are what the rules must not touch. */
function typeset(language: string, parts: (string | Piece)[], settings = DEFAULT_TYPOGRAPHY): string {
  const pieces = parts.map((part) => (typeof part === 'string' ? { text: part } : part));
  const translated = new Set(pieces.filter((_, index) => typeof parts[index] === 'string'));
  const typography = Typography.for(language, settings);
  return (typography ? typography.apply(pieces, translated) : pieces).map((piece) => ('raw' in piece ? piece.raw : piece.text)).join('');
}

describe('Typography', () => {
  it('sets French narrow no-break spaces before ; : ! ? and inside guillemets, in place of any space the engine put', () => {
    expect(typeset('fr', ['Avertissement: fichier introuvable!'])).toBe(`Avertissement${NNBSP}: fichier introuvable${NNBSP}!`);
    expect(typeset('fr', ['Quoi ?! Vraiment\u00A0; oui'])).toBe(`Quoi${NNBSP}?! Vraiment${NNBSP}; oui`);
    expect(typeset('fr', ['"Enregistrer"'])).toBe(`«${NNBSP}Enregistrer${NNBSP}»`);
    expect(typeset('fr', ['« Enregistrer »'])).toBe(`«${NNBSP}Enregistrer${NNBSP}»`);
    // Times and ratios are not the end of a word.
    expect(typeset('fr', ['À 10:30 précises'])).toBe('À 10:30 précises');
  });

  it('never changes variables, markup or kept terms, and reads the sentence across them', () => {
    expect(typeset('fr', ['Avis: ', { text: '{name}' }, ' introuvable!'])).toBe(`Avis${NNBSP}: {name} introuvable${NNBSP}!`);
    expect(typeset('fr', ['"', { raw: '<b>' }, 'Enregistrer', { raw: '</b>' }, '"'])).toBe(`«${NNBSP}<b>Enregistrer</b>${NNBSP}»`);
    // A straight quote inside a variable is not a quotation mark of the text.
    expect(typeset('de', ['Sag ', { text: '{x, select, a {"a"} other {b}}' }, ' "Hallo"'])).toBe('Sag {x, select, a {"a"} other {b}} „Hallo“');
    expect(typeset('fr', [{ text: "l'{count}" }, ' fichiers'])).toBe("l'{count} fichiers");
  });

  it('writes each language its own quotation marks, and leaves quotes the engine already wrote alone', () => {
    expect(typeset('de', ['Er sagte "Hallo" und “Tschüss”'])).toBe('Er sagte „Hallo“ und „Tschüss“');
    expect(typeset('de', ['Er sagte „Hallo“'])).toBe('Er sagte „Hallo“');
    expect(typeset('pl', ['Powiedział "cześć"'])).toBe('Powiedział „cześć”');
    expect(typeset('cs', ['Řekl "ahoj"'])).toBe('Řekl „ahoj“');
    expect(typeset('es', ['Dijo "hola"'])).toBe('Dijo «hola»');
    expect(typeset('it', ['Disse "ciao"'])).toBe('Disse «ciao»');
    // An odd number of straight quotes cannot be paired for sure.
    expect(typeset('es', ['Una pantalla de 5" y "otra" cosa'])).toBe('Una pantalla de 5" y "otra" cosa');
    expect(typeset('sv', ['Han sa "hej"'])).toBe('Han sa "hej"');
  });

  it('opens Spanish exclamations and questions where the sentence starts, unless the text holds only its end', () => {
    expect(typeset('es', ['Aviso: archivo no encontrado!'])).toBe('¡Aviso: archivo no encontrado!');
    expect(typeset('es', ['Hola. ¿Qué tal? No lo sé?'])).toBe('Hola. ¿Qué tal? ¿No lo sé?');
    expect(typeset('es', ['"Guardar"!'])).toBe('¡«Guardar»!');
    expect(typeset('es', ['Dijo: "Hola!"'])).toBe('Dijo: «¡Hola!»');
    expect(typeset('es', [' "Hola!"'])).toBe(' «¡Hola!»');
    expect(typeset('es', [{ text: '{name}' }, ' no encontrado!'])).toBe('¡{name} no encontrado!');
    expect(typeset('es', [': la lima no es encontrada!'])).toBe(': la lima no es encontrada!');
  });

  it('turns apostrophes between letters typographic where the language uses them', () => {
    expect(typeset('fr', ["l'utilisateur n'est pas là"])).toBe('l’utilisateur n’est pas là');
    expect(typeset('en', ["don't 'quote'"])).toBe("don’t 'quote'");
    expect(typeset('es', ["O'Brien"])).toBe("O'Brien");
  });

  it('applies only the rules that are on, and none for a language without a convention', () => {
    const noSpacing = { ...DEFAULT_TYPOGRAPHY, french_spacing: false };
    expect(typeset('fr', ['Avis: "fichier"!'], noSpacing)).toBe('Avis: «fichier»!');
    expect(typeset('es', ['Hola!'], { ...DEFAULT_TYPOGRAPHY, inverted_marks: false })).toBe('Hola!');
    expect(Typography.for('fi', { ...DEFAULT_TYPOGRAPHY, apostrophe: false })).toBeUndefined();
    expect(Typography.for('sv', DEFAULT_TYPOGRAPHY)).toBeUndefined();
  });
});
