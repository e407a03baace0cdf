import { EU_LANGUAGES } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { LanguageDetector } from './language-detector';

const detector = new LanguageDetector();

describe('LanguageDetector', () => {
  it.each([
    ['en', 'The cat is sleeping on the red sofa.'],
    ['de', 'Die Katze schläft auf dem roten Sofa.'],
    ['fr', 'Le chat dort sur le canapé rouge.'],
    ['es', 'El gato duerme en el sofá rojo.'],
    ['it', 'Il gatto dorme sul divano rosso.'],
    ['pt', 'O gato está dormindo no sofá vermelho.'],
    ['nl', 'De kat slaapt op de rode bank.'],
    ['pl', 'Kot śpi na czerwonej kanapie.'],
    ['sv', 'Katten sover på den röda soffan.'],
    ['cs', 'Děkuji vám za rychlou odpověď.'],
    ['el', 'Η γάτα κοιμάται στον κόκκινο καναπέ.'],
    ['bg', 'Котката спи на червения диван.'],
    ['hr', 'Mačka spava na crvenom kauču.'],
    ['sl', 'Mačka spi na rdečem kavču.'],
    ['fi', 'Kissa nukkuu punaisella sohvalla.'],
    ['hu', 'A macska a piros kanapén alszik.'],
    ['mt', 'Grazzi tat-tweġiba mgħaġġla tiegħek.'],
  ])('recognises %s', async (code, text) => {
    expect(await detector.detect(text, EU_LANGUAGES)).toBe(code);
  });

  it('chooses among the candidate sources, so short texts get a usable answer', async () => {
    // Among all languages ELD scores "Hello world" highest as Norwegian; among the sources an
    // engine can translate into Spanish, English wins.
    expect(await detector.detect('Hello world', ['en', 'fr', 'pt', 'it', 'ro'])).toBe('en');
    expect(await detector.detect('Bonjour', ['en', 'fr', 'es'])).toBe('fr');
  });

  it('gives no answer when no candidate fits the text', async () => {
    expect(await detector.detect('Η γάτα κοιμάται στον κόκκινο καναπέ.', ['en', 'fr'])).toBeUndefined();
    expect(await detector.detect('Grazzi tat-tweġiba mgħaġġla tiegħek.', ['en', 'fr'])).not.toBe('mt');
  });

  it('gives no answer when there is no language to see', async () => {
    expect(await detector.detect('', EU_LANGUAGES)).toBeUndefined();
    expect(await detector.detect('12345 67', EU_LANGUAGES)).toBeUndefined();
  });
});
