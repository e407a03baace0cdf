import { describe, expect, it } from 'vitest';
import { euLanguage, selectModes } from './apertium-languages';
import { splitPipeline } from './apertium-modes';
import { fromStream, toStream } from './apertium-stream';

describe('selectModes', () => {
  it('keeps directions between EU languages and prefers the standard variant of each pair', () => {
    const names = [
      'eng-spa', 'spa-eng', 'spa-eng_US', 'es-pt', 'es-pt_BR', 'pt_BR-es',
      'slv-hbs', 'slv-hbs_HR', 'slv-hbs_SR', 'slv-hbs_BS', 'hbs_SR-slv',
      'eco-fr-es', 'Cyrl-Latn', 'eng-cat', 'spa-glg', 'nob-nno', 'fra-fra',
    ];
    const selected = Object.fromEntries(selectModes(names).map(({ source, target, mode }) => [`${source}-${target}`, mode]));
    expect(selected).toEqual({
      'en-es': 'eng-spa',
      'es-en': 'spa-eng',
      'es-pt': 'es-pt',
      // Brazilian Portuguese stands in while no European Portuguese mode exists.
      'pt-es': 'pt_BR-es',
      'sl-hr': 'slv-hbs_HR',
    });
  });

  it('maps ISO 639-3 and 639-1 codes, and rejects other languages and variants of a macrolanguage', () => {
    expect(euLanguage('deu')).toEqual({ code: 'de', rank: 1 });
    expect(euLanguage('de')).toEqual({ code: 'de', rank: 1 });
    expect(euLanguage('hbs_HR')).toEqual({ code: 'hr', rank: 0 });
    expect(euLanguage('eng_US')).toEqual({ code: 'en', rank: 2 });
    for (const code of ['hbs_SR', 'hbs_BS', 'cat', 'glg', 'toString', 'eng_US_x', '']) expect(euLanguage(code)).toBeNull();
  });
});

describe('splitPipeline', () => {
  it('splits a mode into stages of words, honouring quotes and backslashes', () => {
    const line = "lt-proc -z '/usr/share/a b/x.bin' | apertium-tagger -z -g $2 \"/p.prob\" |lrx-proc a\\ b\n";
    expect(splitPipeline(line)).toEqual([
      ['lt-proc', '-z', '/usr/share/a b/x.bin'],
      ['apertium-tagger', '-z', '-g', '$2', '/p.prob'],
      ['lrx-proc', 'a b'],
    ]);
  });

  it('refuses shell syntax it does not run', () => {
    for (const line of ['lt-proc x > out', 'a; b', 'a | | b', "lt-proc 'x"]) expect(() => splitPipeline(line)).toThrow();
  });
});

describe('stream format', () => {
  it('turns tags and entities into superblanks and escapes reserved characters', () => {
    expect(toStream('Hi <g id="1">you</g>, <x id="2"/> & [a] b/c @d ^$ {e} \\ AT&amp;T')).toBe(
      'Hi [\\<g id="1"\\>]you[\\<\\/g\\>], [\\<x id="2"\\/\\>] & \\[a\\] b\\/c \\@d \\^\\$ \\{e\\} \\\\ AT[&amp;]T',
    );
  });

  it('gives back every segment unchanged when nothing translates it', () => {
    for (const segment of ['Hi <g id="1">you</g>, <x id="2"/>.', '1 < 2 > 0 & [x] \\ @ ^ $ {}', '<!-- note --> &#x27;q&#39; &nbsp;', 'a\nb\tc']) {
      expect(fromStream(toStream(segment))).toBe(segment);
    }
  });

  it('drops NUL characters, which would end the request early', () => {
    expect(toStream('a\0b')).toBe('ab');
  });
});
