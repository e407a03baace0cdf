import { describe, expect, it } from 'vitest';
import { fileProblem, formatOfName } from './memory-file';

const file = (name: string, size = 10) => new File([new Uint8Array(size)], name);

describe('formatOfName', () => {
  it('reads the format from the extension, in any case', () => {
    expect(formatOfName('Export.TMX')).toBe('tmx');
    expect(formatOfName('ui.de.xlf')).toBe('xliff');
    expect(formatOfName('app.xliff')).toBe('xliff');
    expect(formatOfName('de.po')).toBe('po');
    expect(formatOfName('template.pot')).toBe('po');
  });

  it('knows no format for other names', () => {
    expect(formatOfName('memory.xml')).toBeUndefined();
    expect(formatOfName('tmx')).toBeUndefined();
    expect(formatOfName('archive.tmx.zip')).toBeUndefined();
  });
});

describe('fileProblem', () => {
  it('asks for a file, a smaller one, or the format when the name does not say', () => {
    expect(fileProblem(undefined, undefined, 100)).toBe('missing');
    expect(fileProblem(file('big.tmx', 101), undefined, 100)).toBe('too-large');
    expect(fileProblem(file('memory.xml'), undefined, 100)).toBe('format-unknown');
    expect(fileProblem(file('memory.xml'), 'tmx', 100)).toBeUndefined();
    expect(fileProblem(file('memory.tmx', 100), undefined, 100)).toBeUndefined();
  });
});
