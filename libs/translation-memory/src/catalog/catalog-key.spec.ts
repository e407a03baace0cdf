import { describe, expect, it } from 'vitest';
import { keyHash, normaliseKey, normaliseTarget, restore } from './catalog-key';
import { languageOfLocale } from './catalog-files';
import { catalogPair } from './catalog-reader';

describe('catalog normalisation', () => {
  it.each([
    ['_Save', 'Save', { accelerator: '_', initial: 'upper' }],
    ['&amp;Open', 'Open', { accelerator: '&amp;', initial: 'upper' }],
    ['~Save', 'Save', { accelerator: '~', initial: 'upper' }],
    ['Propert_ies', 'Properties', { accelerator: '_', initial: 'upper' }],
    ['Save _As…', 'Save As', { accelerator: '_', suffix: '…', initial: 'upper' }],
    ['Save (_S)', 'Save', { initial: 'upper' }],
    ['Open (&amp;O)...', 'Open', { suffix: '...', initial: 'upper' }],
    ['Name:', 'Name', { suffix: ':', initial: 'upper' }],
    ['name :', 'name', { suffix: ':', initial: 'lower' }],
    ['File saved.', 'File saved', { suffix: '.', initial: 'upper' }],
    ['<x id="1"/> files', '<x id="1"/> files', {}],
    ['NEW POST', 'NEW POST', { initial: 'upper', capitals: true }],
    ['<x id="1"/> FILES', '<x id="1"/> FILES', { capitals: true }],
    ['A', 'A', { initial: 'upper' }],
  ])('takes %j to %j', (query, key, form) => {
    const normal = normaliseKey(query);
    expect(normal.key).toBe(key);
    expect(normal.form).toEqual({ accelerator: undefined, suffix: undefined, initial: undefined, capitals: undefined, ...form });
  });

  it.each([
    // Text that only looks like an accelerator or a suffix stays text.
    ['R&amp;D', 'R&amp;D'],
    ['file_name', 'file_name'],
    ['a_b and c_d', 'a_b and c_d'],
    ['...', '...'],
    ['.', '.'],
    [':', ':'],
  ])('keeps %j as it is', (query, key) => {
    expect(normaliseKey(query).key).toBe(key);
  });

  it('matches keys whatever their case, through the hash of the lower-case key', () => {
    expect(keyHash('Sign Up')).toEqual(keyHash('sign up'));
    expect(normaliseKey('_Sign Up:').hash).toEqual(normaliseKey('sign up').hash);
    expect(keyHash('Sign Up')).not.toEqual(keyHash('Sign Out'));
  });

  it("takes a translation's accelerator off, its trailing colon or ellipsis, and its full stop only where the source had one", () => {
    expect(normaliseTarget('_Speichern unter …', { suffix: '…' })).toBe('Speichern unter');
    expect(normaliseTarget('Nom\u00a0:', { suffix: ':' })).toBe('Nom');
    expect(normaliseTarget('Passwort:', {})).toBe('Passwort');
    expect(normaliseTarget('Warten...', {})).toBe('Warten');
    expect(normaliseTarget('Gespeichert.', { suffix: '.' })).toBe('Gespeichert');
    expect(normaliseTarget('Nr.', {})).toBe('Nr.');
    // A terminal prompt's translation ends in a space after its colon.
    expect(normaliseTarget('Contraseña antigua: ', { suffix: ':' })).toBe('Contraseña antigua');
  });

  it("gives back the query's suffix, as the target language writes a colon", () => {
    expect(restore('Nom', { suffix: ':', initial: 'upper' }, { initial: 'upper' }, 'fr')).toBe('Nom\u00a0:');
    expect(restore('Name', { suffix: ':', initial: 'upper' }, { initial: 'upper' }, 'de')).toBe('Name:');
    expect(restore('Speichern unter', { suffix: '...' }, {}, 'de')).toBe('Speichern unter...');
    expect(restore('Speichern unter…', { suffix: '…' }, {}, 'de')).toBe('Speichern unter…');
  });

  it("gives back the query's initial capital where the translation followed its source's case", () => {
    expect(restore('enregistrer', { initial: 'upper' }, { initial: 'lower' }, 'fr')).toBe('Enregistrer');
    expect(restore('Enregistrer', { initial: 'lower' }, { initial: 'upper' }, 'fr')).toBe('enregistrer');
    // German nouns keep their capital, acronyms theirs, and a translation that did not follow its source is left alone.
    expect(restore('Datei', { initial: 'lower' }, { initial: 'upper' }, 'de')).toBe('Datei');
    expect(restore('URL', { initial: 'lower' }, { initial: 'upper' }, 'fr')).toBe('URL');
    expect(restore('Fichier', { initial: 'lower' }, { initial: 'lower' }, 'fr')).toBe('Fichier');
    // After an opening mark, not after a placeholder.
    expect(restore('¿Está seguro?', { initial: 'lower' }, { initial: 'upper' }, 'es')).toBe('¿está seguro?');
    expect(restore('<x id="1"/> Dateien', { initial: 'lower' }, { initial: 'upper' }, 'fr')).toBe('<x id="1"/> Dateien');
  });

  it('writes the translation in capitals where the query is and the key was not, placeholders and entities untouched', () => {
    expect(restore('Configuración', { initial: 'upper', capitals: true }, { initial: 'upper' }, 'es')).toBe('CONFIGURACIÓN');
    expect(restore('Straße', { initial: 'upper', capitals: true }, { initial: 'upper' }, 'de')).toBe('STRASSE');
    expect(restore('<x id="1"/> Dateien &amp; Ordner', { capitals: true }, {}, 'de')).toBe('<x id="1"/> DATEIEN &amp; ORDNER');
    expect(restore('Kilit', { initial: 'upper', capitals: true }, { initial: 'upper' }, 'tr')).toBe('KİLİT');
    // A key in capitals already answers as its translators wrote it.
    expect(restore('Url', { initial: 'upper', capitals: true }, { initial: 'upper', capitals: true }, 'fr')).toBe('Url');
  });

  it("puts the query's accelerator before the translation's first letter, outside placeholders", () => {
    expect(restore('Öffnen', { accelerator: '_', initial: 'upper' }, { initial: 'upper' }, 'de')).toBe('_Öffnen');
    expect(restore('<x id="1"/> öffnen', { accelerator: '&amp;' }, {}, 'de')).toBe('<x id="1"/> &amp;öffnen');
  });
});

describe('catalog messages', () => {
  it('masks printf and brace placeholders as the pipeline does, the translation in the source numbering', () => {
    expect(catalogPair('Delete %s from %d folders?', 'Aus %2$d Ordnern %1$s löschen?')).toEqual({
      key: 'Delete <x id="1"/> from <x id="2"/> folders?',
      target: 'Aus <x id="2"/> Ordnern <x id="1"/> löschen?',
    });
    expect(catalogPair('Copy %1$s to %2$s', 'Kopiere %2$s nach %1$s')).toEqual({ key: 'Copy <x id="1"/> to <x id="2"/>', target: 'Kopiere <x id="2"/> nach <x id="1"/>' });
    expect(catalogPair('Page {0} of {1}', 'Seite {0} von {1}')).toEqual({ key: 'Page <x id="1"/> of <x id="2"/>', target: 'Seite <x id="1"/> von <x id="2"/>' });
    expect(catalogPair('_Save & Close…', '_Speichern & schließen …')).toEqual({ key: 'Save &amp; Close', target: 'Speichern &amp; schließen' });
  });

  it('leaves out translations that drop or add a placeholder, credits, and strings of no text', () => {
    expect(catalogPair('%d files', 'Dateien')).toBe('placeholders');
    expect(catalogPair('Files', '%d Dateien')).toBe('placeholders');
    expect(catalogPair('translator-credits', 'Ana')).toBe('credits');
    expect(catalogPair('%s:', '%s :')).toBe('no_text');
    expect(catalogPair('Bell\u0007', 'Glocke')).toBe('unreadable_text');
    expect(catalogPair('x'.repeat(201), 'y')).toBe('long');
  });
});

describe('locale directories', () => {
  it.each([
    ['pt', { language: 'pt', plain: true }],
    ['pt_PT', { language: 'pt', plain: false }],
    ['de_AT', { language: 'de', plain: false }],
    ['fr-BE', { language: 'fr', plain: false }],
    ['pt_BR', undefined],
    ['de_CH', undefined],
    ['fr_CA', undefined],
    ['sr@latin', undefined],
    ['ca@valencia', undefined],
    ['nb', undefined],
    ['en', undefined],
    ['en_GB', undefined],
  ])('reads %s as %j', (locale, language) => {
    expect(languageOfLocale(locale)).toEqual(language);
  });
});

describe('catalogPair and mnemonics inside a word', () => {
  it('takes a mnemonic inside a word out before the pipeline could read the word as an identifier', () => {
    expect(catalogPair('Open', 'Ö_ffnen')).toEqual({ key: 'Open', target: 'Öffnen' });
    expect(catalogPair('Sa_ve', 'Speichern')).toEqual({ key: 'Save', target: 'Speichern' });
  });

  it('keeps identifiers, and strings with more than one underscore, as they are', () => {
    expect(catalogPair('Rename file_name', 'file_name umbenennen')).toEqual({ key: 'Rename <x id="1"/>', target: '<x id="1"/> umbenennen' });
    // Both words are identifiers to the pipeline: nothing of the string is text.
    expect(catalogPair('A_b c_d', 'E_f g_h')).toBe('no_text');
  });
});
