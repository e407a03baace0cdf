import { refusal } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { glossaryFromCsv, glossaryToCsv, parseCsv, toCsv } from './glossary-csv';


describe('parseCsv', () => {
  it('reads RFC 4180 quoting: commas, doubled quotes and line breaks inside quotes', () => {
    const text = 'term,de\r\n"a, b","x ""y"" z"\r\n"two\r\nlines",plain\r\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, fields: ['term', 'de'] },
      { line: 2, fields: ['a, b', 'x "y" z'] },
      { line: 3, fields: ['two\r\nlines', 'plain'] },
    ]);
  });

  it('counts physical lines, so a record after a quoted line break names the right line', () => {
    const records = parseCsv('h\n"1\n2\n3"\nnext\n');
    expect(records.map((r) => r.line)).toEqual([1, 2, 5]);
  });

  it('accepts LF and CR line ends, a missing final line end, empty fields and a BOM', () => {
    expect(parseCsv('\uFEFFa,,c\nd,e,\rf,"",g')).toEqual([
      { line: 1, fields: ['a', '', 'c'] },
      { line: 2, fields: ['d', 'e', ''] },
      { line: 3, fields: ['f', '', 'g'] },
    ]);
    expect(parseCsv('')).toEqual([]);
  });

  it('names the line where an unterminated quoted field opened', () => {
    const error = refusal(() => parseCsv('term,de\nok,fine\nalso,fine\n"open,never closed\nmore\n'));
    expect(error.getStatus()).toBe(422);
    expect(error.message).toBe('line 4: unterminated quoted field');
  });

  it('refuses stray quotes instead of guessing', () => {
    expect(refusal(() => parseCsv('term,de\nsay "hi",x\n')).message).toMatch(/^line 2: a double quote inside an unquoted field/);
    expect(refusal(() => parseCsv('term,de\n"quoted"tail,x\n')).message).toBe('line 2: unexpected "t" after a closing quote');
  });

  it('writes what it reads back unchanged, quoting only where needed', () => {
    const rows = [
      ['term', 'de'],
      ['comma, inside', 'quote " inside'],
      ['line\nbreak', 'plain'],
      ['', 'ä€𝄞'],
    ];
    const text = toCsv(rows);
    expect(text).toBe('term,de\r\n"comma, inside","quote "" inside"\r\n"line\nbreak",plain\r\n,ä€𝄞\r\n');
    expect(parseCsv(text).map((r) => r.fields)).toEqual(rows);
  });
});

describe('glossaryFromCsv', () => {
  it('reads the header languages and leaves empty cells out of the translations', () => {
    const draft = glossaryFromCsv('Term, DE ,fr\ncloud,Wolke,\nserver,Server,serveur\n\n,,\n', 'it', 'en');
    expect(draft).toEqual({
      name: 'it',
      source: 'en',
      entries: [
        { at: 'line 2', term: 'cloud', translations: { de: 'Wolke' } },
        { at: 'line 3', term: 'server', translations: { de: 'Server', fr: 'serveur' } },
      ],
    });
  });

  it.each([
    ['term,de,xx\n', 'line 1: column 3: language "xx" is not one of the 24 official EU languages'],
    ['term,en\n', 'line 1: column 2: "en" is the source language of the glossary, not a target'],
    ['term,de,DE\n', 'line 1: column 3: "de" appears twice'],
    ['word,de\n', 'line 1: the header row must be "term" followed by one column per target language'],
    ['term;de\ncloud;Wolke\n', 'fields are separated by commas'],
    ['term\ncloud\n', 'line 1: the header row names no target language'],
    ['term,de\ncloud,Wolke\nrain\n', 'line 3: 1 fields where the header row has 2'],
    ['\n\n', 'The CSV is empty'],
  ])('refuses %j', (text, message) => {
    const error = refusal(() => glossaryFromCsv(text, 'g', 'en'));
    expect(error.getStatus()).toBe(422);
    expect(error.message).toContain(message);
  });

  it('exports the header term,<targets> and empty cells for missing translations', () => {
    const csv = glossaryToCsv({
      targets: ['de', 'fr'],
      entries: [
        { term: 'cloud', translations: { de: 'Wolke' } },
        { term: 'say "hi", now', translations: { de: 'sag "hallo"', fr: 'dis' } },
      ],
    });
    expect(csv).toBe('term,de,fr\r\ncloud,Wolke,\r\n"say ""hi"", now","sag ""hallo""",dis\r\n');
  });

  it('defuses cells a spreadsheet would run as formulas and reads them back unchanged', () => {
    const entries: { term: string; translations: Record<string, string> }[] = [
      { term: '=HYPERLINK("http://x.test","click")', translations: { de: '+1', fr: '-ing' } },
      { term: '@SUM(A1)', translations: { de: '\tTab', fr: '\rCR' } },
      { term: "'=already escaped", translations: { de: "''@two", fr: "'plain" } },
      { term: 'a=b', translations: { de: '1-2' } },
    ];
    const csv = glossaryToCsv({ targets: ['de', 'fr'], entries });
    expect(parseCsv(csv).slice(1).map(({ fields }) => fields)).toEqual([
      ["'=HYPERLINK(\"http://x.test\",\"click\")", "'+1", "'-ing"],
      ["'@SUM(A1)", "'\tTab", "'\rCR"],
      ["''=already escaped", "'''@two", "'plain"],
      ['a=b', '1-2', ''],
    ]);
    expect(glossaryFromCsv(csv, 'g', 'en').entries.map(({ term, translations }) => ({ term, translations }))).toEqual(entries);
  });

  it('keeps a formula-like cell of an upload without the apostrophe as it is', () => {
    expect(glossaryFromCsv("term,de\n=1+1,'-x\n", 'g', 'en').entries[0]).toMatchObject({ term: '=1+1', translations: { de: '-x' } });
  });
});
