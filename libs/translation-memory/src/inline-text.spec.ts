import { describe, expect, it } from 'vitest';
import { maskPair, maskTokens, readable, tokensOfMasked, tokensOfPlainText } from './inline-text';

const mask = (text: string) => maskTokens(tokensOfPlainText(text));

describe('plain text in the stored form', () => {
  it('masks markup as pairs or codes and variables as codes, escaping the text as the engine form does', () => {
    expect(mask('Click <b>Save</b> to keep {count} files & folders<br/> (%s)')).toEqual({
      text: 'Click <g id="1">Save</g> to keep <x id="2"/> files &amp; folders<x id="3"/> (<x id="4"/>)',
      codes: { 1: ['<b>', '</b>'], 2: '{count}', 3: '<br/>', 4: '%s' },
    });
  });

  it('gives markup that differs only in its attributes the same masked text', () => {
    expect(mask('Read <a href="/terms">the terms</a>').text).toBe(mask('Read <a class="link" href="/de/agb">the terms</a>').text);
  });

  it('makes a tag without its partner, or crossing another pair, opaque', () => {
    expect(mask('a <b>bold <i>both</b> italic</i>').text).toBe('a <x id="1"/>bold <g id="2">both<x id="3"/> italic</g>');
    expect(mask('</p> closes').text).toBe('<x id="1"/> closes');
  });

  it('reads back as it was written', () => {
    for (const text of ['Click <b>Save</b> to keep {count} files', 'a < b && c > d', 'Fish &amp; chips <br/>', '{n, plural, one {# file} other {# files}} left']) {
      expect(readable(mask(text))).toBe(text);
      expect(maskTokens(tokensOfMasked(mask(text)))).toEqual(mask(text));
    }
  });
});

describe('maskPair', () => {
  it("numbers the target's codes as the source's codes they stand for, whatever their order", () => {
    const { source, target } = maskPair(tokensOfPlainText('{user} sent <b>{count}</b> files'), tokensOfPlainText('<b>{count}</b> Dateien von {user}'));
    expect(source.text).toBe('<x id="1"/> sent <g id="2"><x id="3"/></g> files');
    expect(target.text).toBe('<g id="2"><x id="3"/></g> Dateien von <x id="1"/>');
  });

  it("ties codes by the file's ids first, then by their original, then by order", () => {
    const { target } = maskPair(
      [{ kind: 'code', raw: '<img a>', ref: 'x1' }, { kind: 'text', text: ' and ' }, { kind: 'code', raw: '<img b>', ref: 'x2' }],
      [{ kind: 'code', raw: '<img B>', ref: 'x2' }, { kind: 'text', text: ' und ' }, { kind: 'code', raw: '<img A>', ref: 'x1' }],
    );
    expect(target).toEqual({ text: '<x id="2"/> und <x id="1"/>', codes: { 1: '<img A>', 2: '<img B>' } });
    const byOrder = maskPair(tokensOfPlainText('<br/>a<hr/>'), tokensOfPlainText('<hr/>b<br/><wbr/>'));
    expect(byOrder.target.text).toBe('<x id="2"/>b<x id="1"/><x id="3"/>');
  });

  it('shows a code whose original the file did not give as its placeholder', () => {
    const { source } = maskPair([{ kind: 'text', text: 'Press ' }, { kind: 'code', raw: '' }], [{ kind: 'text', text: 'Drücke' }]);
    expect(readable(source)).toBe('Press <x id="1"/>');
  });
});
