import { describe, expect, it } from 'vitest';
import { reviewedSegments, withSegmentReplaced } from './reviewed-segments';

describe('reviewedSegments', () => {
  it('cuts a text into its paragraphs, trimmed, blank ones left out', () => {
    expect(reviewedSegments('text', '  Save the file.\n\n \n\nClose it.\nNow.  ')).toEqual([
      { text: 'Save the file.', value: 0, paragraph: 0 },
      { text: 'Close it.\nNow.', value: 0, paragraph: 1 },
    ]);
    expect(reviewedSegments('text', ' \n\n ')).toEqual([]);
  });

  it('takes the string values of JSON in the order of the text, leaving out notes and the locale', () => {
    const source = '{"@@locale":"en","title":"Welcome","@title":{"description":"Page title"},"2":"Two\\n\\nparts","n":3,"menu":["Open",""]}';
    expect(reviewedSegments('json', source)).toEqual([
      { text: 'Welcome', value: 0, paragraph: 0 },
      { text: 'Two', value: 1, paragraph: 0 },
      { text: 'parts', value: 1, paragraph: 1 },
      { text: 'Open', value: 2, paragraph: 0 },
    ]);
    expect(reviewedSegments('json', '{"title": "Welcome"')).toEqual([]);
  });

  it('keeps an HTML text whole', () => {
    expect(reviewedSegments('html', '<p>One.</p>\n\n<p>Two.</p>')).toEqual([{ text: '<p>One.</p>\n\n<p>Two.</p>', value: 0, paragraph: 0 }]);
  });
});

describe('withSegmentReplaced', () => {
  it('replaces a one-paragraph text whole, keeping the whitespace around it', () => {
    expect(withSegmentReplaced('text', 'Save the file.', '  Datei sichern. \n', { text: 'Save the file.', value: 0, paragraph: 0 }, ' Datei speichern.')).toBe('  Datei speichern. \n');
  });

  it('replaces the same paragraph of a translation with as many, and nothing where the paragraphs differ', () => {
    const source = 'Save the file.\n\nClose it.';
    const segment = { text: 'Close it.', value: 0, paragraph: 1 };
    expect(withSegmentReplaced('text', source, 'Datei speichern.\n \nSchließen.\n', segment, 'Schließen Sie sie.')).toBe('Datei speichern.\n \nSchließen Sie sie.\n');
    expect(withSegmentReplaced('text', source, 'Datei speichern. Schließen.', segment, 'Schließen Sie sie.')).toBeNull();
  });

  it('writes into the string value of a JSON text in place, escaped, the rest byte for byte', () => {
    const source = '{"@title":{"description":"x"},"title":"Welcome","menu":["Open","Close"]}';
    const translation = '{\n  "@title": {"description": "x"},\n  "title": "Willkommen",\n  "menu": ["\\u00d6ffnen", "Schlie\\u00dfen"]\n}';
    expect(withSegmentReplaced('json', source, translation, { text: 'Close', value: 2, paragraph: 0 }, 'Zu "machen"')).toBe(
      '{\n  "@title": {"description": "x"},\n  "title": "Willkommen",\n  "menu": ["\\u00d6ffnen", "Zu \\"machen\\""]\n}',
    );
    expect(withSegmentReplaced('json', source, '{"title":"Willkommen"}', { text: 'Close', value: 2, paragraph: 0 }, 'Zu')).toBeNull();
    expect(withSegmentReplaced('json', source, '{"title":', { text: 'Welcome', value: 0, paragraph: 0 }, 'Hallo')).toBeNull();
  });

  it('replaces an HTML text whole', () => {
    expect(withSegmentReplaced('html', '<p>Hi</p>', '<p>Hallo</p>', { text: '<p>Hi</p>', value: 0, paragraph: 0 }, '<p>Guten Tag</p>')).toBe('<p>Guten Tag</p>');
  });
});
