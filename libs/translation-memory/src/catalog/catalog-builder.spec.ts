import { dataSourceOptions, runMigrations, translationDomain } from '@platform/database';
import { createScratchDatabase, type ScratchDatabase } from '@platform/testing';
import { mo, type GetTextTranslation } from 'gettext-parser';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryEntry } from '../memory-entry.entity';
import { MemoryEntryRepository } from '../memory-entry.repository';
import { Memory } from '../memory.entity';
import { MemoryRepository } from '../memory.repository';
import { TranslationMemory } from '../translation-memory.service';
import { CatalogBuilder, type CatalogBuildOptions } from './catalog-builder';
import { CatalogEntriesLookup } from './catalog-entries.lookup';
import { PackageLicences } from './package-origins';

/** A message of a catalog: msgid → msgstr, `[msgid, plural, forms]` for a plural one. */
type Message = [string, string] | [string, string, string[]];

const DEP5 = `Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: gtk

Files: *
Copyright: The GTK Team
License: LGPL-2.1+
 This library is free software.

Files: debian/*
Copyright: Debian
License: GPL-2+
`;

describe('CatalogBuilder and the catalog lookup (compiled catalogs, own database)', () => {
  let scratch: ScratchDatabase;
  let dataSource: DataSource;
  let memory: TranslationMemory;
  let lookup: CatalogEntriesLookup;
  const dir = mkdtempSync(path.join(tmpdir(), 'catalogs-'));
  const root = path.join(dir, 'locale');
  const docs = path.join(dir, 'doc');
  /** Each catalog's package: the domain's own name after `pkg-`, but `stray` belongs to none. */
  const owners: CatalogBuildOptions['owners'] = async (paths) => new Map(paths.flatMap((file) => (file.includes('stray') ? [] : [[file, `pkg-${path.basename(file, '.mo')}`]])));

  function writeCatalog(locale: string, domain: string, messages: Message[], pluralForms = 'nplurals=2; plural=(n != 1);') {
    const translations: Record<string, Record<string, GetTextTranslation>> = {};
    for (const [msgid, second, forms] of messages) {
      const context = msgid.startsWith('ctx|') ? 'menu' : '';
      const id = msgid.replace(/^ctx\|/, '');
      (translations[context] ??= {})[id] = forms ? { msgid: id, msgid_plural: second, msgctxt: context || undefined, msgstr: forms } : { msgid: id, msgctxt: context || undefined, msgstr: [second] };
    }
    const folder = path.join(root, locale, 'LC_MESSAGES');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, `${domain}.mo`), mo.compile({ charset: 'utf-8', headers: { 'Content-Type': 'text/plain; charset=UTF-8', 'Plural-Forms': pluralForms }, translations }));
  }

  const builder = (options: CatalogBuildOptions = {}) => new CatalogBuilder(dataSource, { roots: [root, path.join(dir, 'missing')], owners, licences: new PackageLicences(docs), ...options });
  const ask = (target: string, segments: string[]) =>
    memory.lookup({ accountId: randomUUID(), sandbox: true, source: 'en', target, segments, catalog: segments.map(() => true) });
  const targets = async (target: string, segments: string[]) => (await ask(target, segments)).map((match) => match?.target);

  beforeAll(async () => {
    scratch = await createScratchDatabase('platform_catalog');
    await runMigrations(scratch.url, translationDomain);
    dataSource = new DataSource({ ...dataSourceOptions(scratch.url, translationDomain, 4), entities: [Memory, MemoryEntry] });
    await dataSource.initialize();
    lookup = new CatalogEntriesLookup(dataSource);
    memory = new TranslationMemory(new MemoryRepository(dataSource.getRepository(Memory)), new MemoryEntryRepository(dataSource.getRepository(MemoryEntry)), lookup);

    mkdirSync(path.join(docs, 'pkg-gtk40'), { recursive: true });
    writeFileSync(path.join(docs, 'pkg-gtk40', 'copyright'), DEP5);
    mkdirSync(path.join(docs, 'pkg-nautilus'), { recursive: true });
    writeFileSync(path.join(docs, 'pkg-nautilus', 'copyright'), 'This package was debianized by someone.\nIt is licensed under the GPL.\n');

    writeCatalog('de', 'gtk40', [
      ['_Save', '_Speichern'],
      ['Name:', 'Name:'],
      ['Open…', 'Ö_ffnen …'],
      ['%d file', '%d files', ['%d Datei', '%d Dateien']],
      ['Copy %1$s to %2$s', 'Kopiere %2$s nach %1$s'],
      ['Delete %s', 'Löschen'],
      ['ctx|Close', 'Schließen'],
    ]);
    writeCatalog('de', 'nautilus', [
      ['Save', 'Speichern'],
      ['Close', 'Schließen'],
      ['sign up', 'registrieren'],
    ]);
    writeCatalog('de', 'cinnamon', [
      ['Save', 'Sichern'],
      ['Sign Up', 'Anmelden'],
    ]);
    writeCatalog('de', 'stray', [['Save', 'Bewahren']]);
    writeCatalog('fr', 'gtk40', [
      ['Name:', 'Nom :'],
      ['Open', 'Ouvrir'],
      ['Save As', 'Enregistrer sous'],
    ]);
    writeCatalog('pt', 'gtk40', [['File', 'Ficheiro']]);
    writeCatalog('pt_BR', 'gtk40', [['File', 'Arquivo'], ['Folder', 'Diretório']]);
    writeCatalog('pt_PT', 'gtk40', [['File', 'Arquivo PT']]);
    writeCatalog('pt_PT', 'nautilus', [['Folder', 'Pasta']]);
    writeCatalog('nb', 'gtk40', [['File', 'Fil']]);
    writeFileSync(path.join(root, 'fr/LC_MESSAGES/broken.mo'), 'not a catalog');
    writeCatalog('sl', 'gtk40', [['%d file', '%d files', ['%d datotek', '%d datoteka', '%d datoteki', '%d datoteke']]], 'nplurals=4; plural=(n%100==1 ? 1 : n%100==2 ? 2 : n%100==3 || n%100==4 ? 3 : 0);');
  }, 60_000);

  afterAll(async () => {
    await dataSource?.destroy();
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds every EU language it finds, and says what each catalog gave and why the rest was left out', async () => {
    const result = await builder().build();
    expect(result.status).toBe('built');
    if (result.status !== 'built') return;
    const de = result.languages.find((language) => language.language === 'de')!;
    expect(de).toMatchObject({ files: 3, unowned: 1, unreadable: 0, messages: 12, taken: 10, skipped: { plural: 1, placeholders: 1 } });
    expect(result.languages.map((language) => language.language)).toEqual(['de', 'fr', 'pt', 'sl']);
    expect(result.languages.find((language) => language.language === 'sl')).toMatchObject({ keys: 0, skipped: { plural: 1 } });
    // A damaged file costs its own strings only.
    expect(result.languages.find((language) => language.language === 'fr')).toMatchObject({ files: 1, unreadable: 1, keys: 3 });
  });

  it('answers with the translation most catalogs agree on, naming each of them with its licence', async () => {
    const [save] = await ask('de', ['Save']);
    expect(save).toMatchObject({ target: 'Speichern', origin: 'catalog' });
    expect(save!.provenance).toEqual([
      { package: 'pkg-gtk40', domain: 'gtk40', licence: 'LGPL-2.1+' },
      { package: 'pkg-nautilus', domain: 'nautilus', licence: `see ${path.join(docs, 'pkg-nautilus', 'copyright')}` },
    ]);
    // A file no package owns has no origin to name: its translation is not there at all.
    const rows = await scratch.query(`SELECT target, agreement FROM translation.catalog_entries WHERE target_lang = 'de' AND key = 'Save' ORDER BY agreement DESC`);
    expect(rows).toEqual([
      { target: 'Speichern', agreement: 2 },
      { target: 'Sichern', agreement: 1 },
    ]);
  });

  it("gives back the query's accelerator, trailing colon or ellipsis and initial case", async () => {
    expect(await targets('de', ['_Save', 'Save…', 'Save...', 'Name', 'Name:', '&amp;Open…', 'Open'])).toEqual(['_Speichern', 'Speichern…', 'Speichern...', 'Name', 'Name:', '&amp;Öffnen…', 'Öffnen']);
    expect(await targets('fr', ['Name:', 'Name', 'open', 'save as', 'Save as:'])).toEqual(['Nom\u00a0:', 'Nom', 'ouvrir', 'enregistrer sous', 'Enregistrer sous\u00a0:']);
    // The key in the query's own case first, then any case (equal agreement: the first written, catalogs in path order), a query in
    // capitals answered in capitals; German keeps its capitals.
    expect(await targets('de', ['Sign Up', 'sign up', 'SIGN UP', 'save'])).toEqual(['Anmelden', 'registrieren', 'ANMELDEN', 'Speichern']);
  });

  it("answers masked segments in their own ids, printf arguments in the translation's order", async () => {
    expect(await targets('de', ['Copy <x id="4"/> to <x id="7"/>', 'Close', 'Delete <x id="1"/>', '%d file'])).toEqual(['Kopiere <x id="7"/> nach <x id="4"/>', 'Schließen', undefined, undefined]);
  });

  it('reads the plain language directory before a member state variant, and no other country or language', async () => {
    expect(await targets('pt', ['File', 'Folder'])).toEqual(['Ficheiro', 'Pasta']);
    const [file] = await ask('pt', ['File']);
    expect(file!.provenance).toEqual([{ package: 'pkg-gtk40', domain: 'gtk40', licence: 'LGPL-2.1+' }]);
    expect(await scratch.query(`SELECT DISTINCT target_lang FROM translation.catalog_entries ORDER BY 1`)).toEqual([{ target_lang: 'de' }, { target_lang: 'fr' }, { target_lang: 'pt' }]);
  });

  it('answers nothing for other language pairs, keys it lacks, and keys no entry could hold', async () => {
    expect(await targets('it', ['Save'])).toEqual([undefined]);
    expect(await lookup.exact('de', 'en', ['Speichern'])).toEqual([undefined]);
    expect(await lookup.exact('en', 'de', ['Save\u0000', 'Unknown', '', 'Save'])).toEqual([undefined, undefined, undefined, expect.objectContaining({ target: 'Speichern' })]);
    expect(await lookup.exact('en', 'de', [])).toEqual([]);
  });

  it('does nothing when the catalogs are those of the active build, and rebuilds when told or when one changed', async () => {
    const [{ id: active }] = await scratch.query<{ id: string }>(`SELECT id FROM translation.catalog_builds WHERE status = 'active'`);
    expect(await builder().build()).toMatchObject({ status: 'unchanged', buildId: active });
    const forced = await builder({ force: true }).build();
    expect(forced).toMatchObject({ status: 'built' });

    writeCatalog('de', 'cinnamon', [['Save', 'Sichern'], ['Sign Up', 'Anmelden'], ['Quit', 'Beenden']]);
    // Same size and time as before would hide the change from the fingerprint: a new time, as a package upgrade gives.
    utimesSync(path.join(root, 'de/LC_MESSAGES/cinnamon.mo'), new Date(), new Date(Date.now() + 5_000));
    const rebuilt = await builder().build();
    expect(rebuilt.status).toBe('built');
    expect(await targets('de', ['Quit'])).toEqual(['Beenden']);
    // Only the active build's entries remain.
    expect(await scratch.query(`SELECT DISTINCT build_id::text AS id FROM translation.catalog_entries`)).toEqual([{ id: rebuilt.buildId }]);
    expect(await scratch.query(`SELECT id::text, status FROM translation.catalog_builds`)).toEqual([{ id: rebuilt.buildId, status: 'active' }]);
  });

  it('keeps answering from the active build while a new one is written, and switches at once', async () => {
    writeCatalog('de', 'nautilus', [['Save', 'Abspeichern'], ['Close', 'Zumachen']]);
    writeCatalog('de', 'cinnamon', [['Save', 'Abspeichern']]);
    writeCatalog('fr', 'gtk40', [['Open', 'Ouvrir maintenant']]);
    writeCatalog('fr', 'files', [['Open', 'Ouvrir maintenant']]);
    utimesSync(path.join(root, 'de/LC_MESSAGES/nautilus.mo'), new Date(), new Date(Date.now() + 10_000));
    // The licence of a package only French has is asked for once German's entries are written: the build waits there.
    let reached!: () => void;
    let release!: () => void;
    const atFrench = new Promise<void>((resolve) => (reached = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    class GatedLicences extends PackageLicences {
      override async of(pkg: string) {
        if (pkg === 'pkg-files') {
          reached();
          await gate;
        }
        return super.of(pkg);
      }
    }
    const building = builder({ licences: new GatedLicences(docs) }).build();
    await atFrench;
    const [{ written }] = await scratch.query<{ written: number }>(
      `SELECT count(*)::int AS written FROM translation.catalog_entries e JOIN translation.catalog_builds b ON b.id = e.build_id WHERE b.status = 'building' AND e.target_lang = 'de'`,
    );
    expect(written).toBeGreaterThan(0);
    expect(await targets('de', ['Save', 'Close'])).toEqual(['Speichern', 'Schließen']);
    expect(await targets('fr', ['Open'])).toEqual(['Ouvrir']);
    // A second build meanwhile waits for the first, then finds nothing left to do, on a connection
    // whose own timeouts are those of a request (they do not apply to a build).
    const strict = new DataSource({ ...dataSourceOptions(scratch.url, translationDomain, 1), extra: { max: 1, statement_timeout: 100, lock_timeout: 100 } });
    await strict.initialize();
    const second = new CatalogBuilder(strict, { roots: [root], owners, licences: new PackageLicences(docs) }).build();
    await new Promise((resolve) => setTimeout(resolve, 500));
    release();
    expect((await building).status).toBe('built');
    expect(await second).toMatchObject({ status: 'unchanged' });
    await strict.destroy();
    expect(await targets('de', ['Save', 'Close'])).toEqual(['Abspeichern', 'Schließen']);
    expect(await targets('fr', ['Open'])).toEqual(['Ouvrir maintenant']);
  });
});
