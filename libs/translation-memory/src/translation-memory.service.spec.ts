import { dataSourceOptions, translationDomain } from '@platform/database';
import { createTestKey, expectEventually, testEnv } from '@platform/testing';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogLookup } from './catalog-lookup';
import { MemoryEntry } from './memory-entry.entity';
import { MemoryEntryRepository } from './memory-entry.repository';
import { Memory } from './memory.entity';
import { MemoryRepository } from './memory.repository';
import { MemoryService } from './memory.service';
import type { PreparedSentence } from '@platform/translation-pipeline';
import { TranslationMemory } from './translation-memory.service';

describe('TranslationMemory.lookup', () => {
  let dataSource: DataSource;
  let memories: MemoryService;
  const catalogAsked: string[][] = [];
  /** A catalog that knows one key. */
  const catalog: CatalogLookup = {
    async exact(source, target, keys) {
      catalogAsked.push(keys);
      return keys.map((key) => (source === 'en' && target === 'de' && key === 'Cancel' ? { target: 'Abbrechen', entryId: '77', provenance: [{ package: 'gtk', domain: 'gtk30', licence: 'LGPL-2.1' }] } : undefined));
    },
  };
  let lookup: TranslationMemory;

  beforeAll(async () => {
    dataSource = new DataSource({ ...dataSourceOptions(testEnv.databaseUrl, translationDomain, 4), entities: [Memory, MemoryEntry] });
    await dataSource.initialize();
    const repositories = [new MemoryRepository(dataSource.getRepository(Memory)), new MemoryEntryRepository(dataSource.getRepository(MemoryEntry))] as const;
    memories = new MemoryService(...repositories);
    lookup = new TranslationMemory(...repositories, catalog);
  });
  afterAll(() => dataSource.destroy());

  const entry = { sourceLang: 'en', targetLang: 'de', source: 'Click <b>Save</b> to keep {count} files.', target: 'Klicken Sie auf <b>Speichern</b>, um {count} Dateien zu behalten.' };

  it("answers a segment from the account's memory in the segment's own ids, then the catalog where it may, in one round trip each", async () => {
    const key = await createTestKey();
    const memory = await memories.create(key, { name: 'UI' });
    const stored = await memories.addEntry(key, memory.id, entry, { key: key.keyId });
    catalogAsked.length = 0;

    const found = await lookup.lookup({
      ...key,
      source: 'en',
      target: 'de',
      segments: ['Click <g id="2">Save</g> to keep <x id="1"/> files.', 'Cancel', 'Cancel', '  Click <g id="5">Save</g>\n to keep <x id="9"/> files. ', 'Unknown'],
      catalog: [true, true, false, true, true],
    });
    expect(found).toEqual([
      { target: 'Klicken Sie auf <g id="2">Speichern</g>, um <x id="1"/> Dateien zu behalten.', origin: 'memory', entryId: stored.id, provenance: { key: key.keyId } },
      { target: 'Abbrechen', origin: 'catalog', entryId: '77', provenance: [{ package: 'gtk', domain: 'gtk30', licence: 'LGPL-2.1' }] },
      undefined,
      { target: 'Klicken Sie auf <g id="5">Speichern</g>, um <x id="9"/> Dateien zu behalten.', origin: 'memory', entryId: stored.id, provenance: { key: key.keyId } },
      undefined,
    ]);
    // The catalog is asked once, only for the open segments it may answer, by their keys.
    expect(catalogAsked).toEqual([['Cancel', 'Unknown']]);
    // Uses are counted after the answer: both segments the entry answered.
    await expectEventually(async () => {
      expect(await dataSource.getRepository(MemoryEntry).findOneByOrFail({ id: stored.id })).toMatchObject({ usageCount: 2, lastUsedAt: expect.any(Date) });
    });
  });

  it("finds nothing in another account's memory or the other mode's, nor for another language pair", async () => {
    const key = await createTestKey();
    const memory = await memories.create(key, { name: 'UI' });
    await memories.addEntry(key, memory.id, entry, {});
    const segments = ['Click <g id="1">Save</g> to keep <x id="2"/> files.'];
    const stranger = await createTestKey();
    for (const request of [
      { ...stranger, source: 'en', target: 'de' },
      { ...key, sandbox: false, source: 'en', target: 'de' },
      { ...key, source: 'en', target: 'fr' },
    ]) {
      expect(await lookup.lookup({ ...request, segments, catalog: [false] })).toEqual([undefined]);
    }
  });

  it('takes the first of the memories named, and only those', async () => {
    const key = await createTestKey();
    const first = await memories.create(key, { name: 'first' });
    const second = await memories.create(key, { name: 'second' });
    await memories.addEntry(key, first.id, { ...entry, source: 'Open', target: 'Öffnen' }, {});
    await memories.addEntry(key, second.id, { ...entry, source: 'Open', target: 'Aufmachen' }, {});
    const ask = async (memoryIds?: string[]) => (await lookup.lookup({ ...key, memoryIds, source: 'en', target: 'de', segments: ['Open'], catalog: [false] }))[0]?.target;
    expect(await ask([second.id, first.id])).toBe('Aufmachen');
    expect(await ask([first.id, 'not-an-id'])).toBe('Öffnen');
    // Without a choice, the latest translation wins.
    expect(await ask()).toBe('Aufmachen');
    const other = await memories.create(key, { name: 'other' });
    expect(await ask([other.id])).toBeUndefined();
  });

  it('gives no answer whose translation has a code the segment lacks', async () => {
    const key = await createTestKey();
    const memory = await memories.create(key, { name: 'UI' });
    await memories.addEntry(key, memory.id, { ...entry, source: 'Next', target: 'Weiter <br/>' }, {});
    expect(await lookup.lookup({ ...key, source: 'en', target: 'de', segments: ['Next'], catalog: [false] })).toEqual([undefined]);
  });

  describe('translationsFor a prepared request', () => {
    /** Prepared sentences as the pipeline hands them over; only these fields are read. */
    const sentence = (source: string, masked: string, whole: boolean) => ({ text: 0, source, masked, words: 1, whole, path: '' }) as unknown as PreparedSentence;
    /** The same lookups, counting the queries of the account's memories. */
    function counting(withCatalog: boolean) {
      const entries = new MemoryEntryRepository(dataSource.getRepository(MemoryEntry));
      const queries: string[][] = [];
      const exact = entries.exact.bind(entries);
      entries.exact = (mode, ids, source, target, hashes) => {
        queries.push([source, target]);
        return exact(mode, ids, source, target, hashes);
      };
      return { memory: new TranslationMemory(new MemoryRepository(dataSource.getRepository(Memory)), entries, withCatalog ? catalog : undefined), queries };
    }

    it('asks once per source language, the catalog only for whole short texts, and gives each sentence its answer', async () => {
      const key = await createTestKey();
      const memory = await memories.create(key, { name: 'UI' });
      await memories.addEntry(key, memory.id, { ...entry, source: 'Open', target: 'Öffnen' }, {});
      await memories.addEntry(key, memory.id, { ...entry, sourceLang: 'fr', source: 'Ouvrir', target: 'Öffnen (fr)' }, {});
      const { memory: translations, queries } = counting(true);
      catalogAsked.length = 0;
      const found = await translations.translationsFor(key, {
        target: 'de',
        memories: true,
        sentences: [sentence('en', 'Open', false), sentence('fr', 'Ouvrir', true), sentence('en', 'Cancel', true), sentence('en', 'Cancel', false), sentence('en', 'Close', true)],
      });
      expect(found).toEqual([{ target: 'Öffnen', origin: 'memory' }, { target: 'Öffnen (fr)', origin: 'memory' }, { target: 'Abbrechen', origin: 'catalog' }, undefined, undefined]);
      expect(queries.toSorted()).toEqual([['en', 'de'], ['fr', 'de']]);
      expect(catalogAsked).toEqual([['Cancel', 'Close']]);
    });

    it('reads no memory for an account without one, and asks nothing at all without a catalog', async () => {
      const key = await createTestKey();
      const withCatalog = counting(true);
      catalogAsked.length = 0;
      expect(await withCatalog.memory.translationsFor(key, { target: 'de', memories: false, sentences: [sentence('en', 'Cancel', true)] })).toEqual([{ target: 'Abbrechen', origin: 'catalog' }]);
      expect(withCatalog.queries).toEqual([]);
      const alone = counting(false);
      expect(await alone.memory.translationsFor(key, { target: 'de', memories: false, sentences: [sentence('en', 'Cancel', true)] })).toEqual([]);
      expect(alone.queries).toEqual([]);
    });
  });
});

describe('TranslationMemory.suggestions', () => {
  let dataSource: DataSource;
  let memories: MemoryService;
  let memory: TranslationMemory;

  beforeAll(async () => {
    dataSource = new DataSource({ ...dataSourceOptions(testEnv.databaseUrl, translationDomain, 4), entities: [Memory, MemoryEntry] });
    await dataSource.initialize();
    const repositories = [new MemoryRepository(dataSource.getRepository(Memory)), new MemoryEntryRepository(dataSource.getRepository(MemoryEntry))] as const;
    memories = new MemoryService(...repositories);
    memory = new TranslationMemory(...repositories);
  });
  afterAll(() => dataSource.destroy());

  /** Near-duplicates of `Save the file` a translator expects back, by trigram similarity: 1 (case and punctuation), 0.81, 0.78, 0.71, 0.63, 0.5, 0.47. */
  const near = ['save the file.', 'Save the files', 'Save the file now', 'Save this file', 'Save a file', 'Save the folder', 'Open the file'];

  it('finds near-duplicates with a word changed, added or removed, or another case or punctuation, however many close ones there are', async () => {
    const key = await createTestKey();
    const { id } = await memories.create(key, { name: 'UI' });
    for (const source of ['Save the file', ...near, 'Close the window']) await memories.addEntry(key, id, { sourceLang: 'en', targetLang: 'de', source, target: `${source} (de)` }, {});
    const suggest = (q: string, limit?: number) => memory.suggestions({ ...key, source: 'en', target: 'de', q, limit });

    const all = await suggest('Save the file');
    expect(all.map((found) => [found.source, found.match])).toEqual([['Save the file', 'exact'], ...near.map((source) => [source, 'fuzzy'])]);
    // A short list may come from the closer entries alone: it is the head of the long one.
    for (const limit of [1, 3, 5]) expect(await suggest('Save the file', limit)).toEqual(all.slice(0, limit));
    // Entries only the least similarity admits still come when the close ones are too few.
    expect((await suggest('Open the file', 3)).map((found) => found.source)).toEqual(['Open the file', 'save the file.', 'Save the file']);
  });
});
