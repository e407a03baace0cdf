import { describe, expect, it } from 'vitest';
import { reviewedPairs } from './reviewed-pairs';

describe('reviewedPairs', () => {
  const texts = (pairs: ReturnType<typeof reviewedPairs>) => pairs.map(({ source, target }) => ({ source: source.text.trim(), target: target.text.trim() }));

  it('pairs a text sentence by sentence (line by line) when both have as many, leaving out what stayed as it was', () => {
    expect(texts(reviewedPairs('text', 'Save the file.\n\nRelease 2.0\n\n  Close it.  ', 'Speichern Sie die Datei.\n\nRelease 2.0\n \nSchließen Sie sie.'))).toEqual([
      { source: 'Save the file.', target: 'Speichern Sie die Datei.' },
      { source: 'Close it.', target: 'Schließen Sie sie.' },
    ]);
  });

  it('learns nothing from a text whose lines do not correspond', () => {
    expect(reviewedPairs('text', 'One.\nTwo.', 'Eins. Zwei.')).toEqual([]);
  });

  it('masks both sides as the pipeline does, with what each placeholder stands for', () => {
    expect(reviewedPairs('text', 'Delete {count} <b>old</b> files', '<b>Alte</b> Dateien ({count}) löschen')).toEqual([
      {
        source: { text: 'Delete <x id="2"/> <g id="1">old</g> files', codes: { 1: ['<b>', '</b>'], 2: '{count}' } },
        target: { text: '<g id="1">Alte</g> Dateien (<x id="2"/>) löschen', codes: { 1: ['<b>', '</b>'], 2: '{count}' } },
      },
    ]);
  });

  it('pairs the string values of JSON at the same paths, metadata keys and unchanged values left out', () => {
    const source = JSON.stringify({ title: 'Welcome', menu: [{ label: 'Open' }, { label: 'Close' }], count: 2, '@title': { description: 'Page title' }, url: 'https://example.eu' });
    const final = JSON.stringify({ title: 'Willkommen', menu: [{ label: 'Öffnen' }, { label: 'Schließen' }], count: 2, '@title': { description: 'Page title' }, url: 'https://example.eu' });
    expect(texts(reviewedPairs('json', source, final))).toEqual([
      { source: 'Welcome', target: 'Willkommen' },
      { source: 'Open', target: 'Öffnen' },
      { source: 'Close', target: 'Schließen' },
    ]);
  });

  it('learns nothing from JSON of another structure, from invalid JSON or from HTML', () => {
    expect(reviewedPairs('json', '{"a":"Open","b":"Close"}', '{"a":"Öffnen"}')).toEqual([]);
    expect(reviewedPairs('json', '{"a":["Open"]}', '{"a":"Öffnen"}')).toEqual([]);
    expect(reviewedPairs('json', '{"a":"Open","n":1}', '{"a":"Öffnen","n":2}')).toEqual([]);
    expect(reviewedPairs('json', '{"a":"Open"', '{"a":"Öffnen"}')).toEqual([]);
    expect(reviewedPairs('html', '<p>Open</p>', '<p>Öffnen</p>')).toEqual([]);
  });
});
