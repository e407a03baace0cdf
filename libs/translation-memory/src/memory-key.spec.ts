import { describe, expect, it } from 'vitest';
import { canonicalIds, memoryKey, withIds } from './memory-key';

describe('memoryKey', () => {
  it('is NFC, trimmed, with every run of whitespace one space', () => {
    expect(memoryKey('  Cafe\u0301 \t au\n\n lait ')).toBe('Café au lait');
    expect(memoryKey('Café au lait')).toBe(memoryKey(' Cafe\u0301  au lait'));
  });

  it('numbers ids in order of appearance, so the same masked text has the same key however it was numbered', () => {
    const pipeline = 'Hi <x id="3"/>, open <g id="1">the <x id="2"/> file</g>';
    expect(memoryKey(pipeline)).toBe('Hi <x id="1"/>, open <g id="2">the <x id="3"/> file</g>');
    expect(memoryKey('Hi <x id="7"/>, open <g id="8">the <x id="9"/> file</g>')).toBe(memoryKey(pipeline));
  });

  it('tells codes apart by kind and place, not by number', () => {
    expect(memoryKey('<x id="1"/> files')).not.toBe(memoryKey('<g id="1"></g> files'));
    expect(memoryKey('<x id="1"/> files')).not.toBe(memoryKey('files <x id="1"/>'));
  });
});

describe('canonicalIds and withIds', () => {
  it("give a stored translation back in the ids of the segment it answers", () => {
    const segment = canonicalIds('Hi <x id="3"/>, open <g id="1">the file</g>');
    expect(segment).toEqual({ text: 'Hi <x id="1"/>, open <g id="2">the file</g>', ids: [3, 1] });
    expect(withIds('Öffne <g id="2">die Datei</g>, <x id="1"/>', segment.ids)).toBe('Öffne <g id="1">die Datei</g>, <x id="3"/>');
  });

  it('give nothing for a translation with a code the segment does not have', () => {
    expect(withIds('Hallo <x id="1"/><x id="2"/>', [5])).toBeUndefined();
  });
});
