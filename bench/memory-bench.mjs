#!/usr/bin/env node
// `npm run bench:memory`: the translation memory on a database of its own.
//  1. The catalog memory built from this machine's installed catalogs (CatalogBuilder, as
//     `catalog:build` runs it): time, memory, strings per language, and the time of a second run
//     that finds nothing changed.
//  2. Its coverage of short interface strings, against the human translations of real apps in
//     the localisation corpus (lemmy, Flutter Gallery, Privacy Badger, GNOME Weather): the share of
//     strings the catalog answers, and the share of those answers equal to the app's own
//     translation.
//  3. What lookups cost: TranslationMemory.lookup for a request of 20 short texts (the account's
//     memories and the catalog), and fuzzy TranslationMemory.suggestions, at 10k, 100k and 1M
//     entries (account memory and catalog alike).
// Usage: node bench/memory-bench.mjs [--quick] (--quick: 10k and 100k entries only, de and fr catalogs)
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createBenchDatabase } from './bench-app.mjs';
import { importLibs } from './bench-libs.mjs';
import { heartbeat, writeBenchResult } from './bench-report.mjs';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
const startedAt = Date.now();
const CORPUS = process.env.CORPUS_DIR ?? path.resolve(import.meta.dirname, '../../shared/corpus');
/** A short interface string: at most this many words and characters, no markup, one line. */
const SHORT_WORDS = 4;
const SHORT_CHARACTERS = 50;
const SIZES = values.quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000];
const SEGMENTS_PER_REQUEST = 20;
const TIMED_REQUESTS = 300;
/** A memory holds at most this many entries (MAX_ENTRIES_PER_MEMORY): bigger sizes are spread over several. */
const ENTRIES_PER_MEMORY = 100_000;

const L = await importLibs({
  CatalogBuilder: 'translation-memory/src/catalog/catalog-builder.ts',
  CatalogEntriesLookup: 'translation-memory/src/catalog/catalog-entries.lookup.ts',
  keyHash: 'translation-memory/src/catalog/catalog-key.ts',
  SMALL_CATALOG_STRINGS: 'translation-memory/src/catalog/catalog-summary.ts',
  TranslationMemory: 'translation-memory/src/translation-memory.service.ts',
  MemoryRepository: 'translation-memory/src/memory.repository.ts',
  MemoryEntryRepository: 'translation-memory/src/memory-entry.repository.ts',
  Memory: 'translation-memory/src/memory.entity.ts',
  MemoryEntry: 'translation-memory/src/memory-entry.entity.ts',
  tokensOfPlainText: 'translation-memory/src/inline-text.ts',
  maskTokens: 'translation-memory/src/inline-text.ts',
  readable: 'translation-memory/src/inline-text.ts',
  memoryKey: 'translation-memory/src/memory-key.ts',
  runMigrations: 'database/src/migration-runner.ts',
  translationDomain: 'database/src/domains.ts',
  dataSourceOptions: 'database/src/data-source-options.ts',
});
const { DataSource } = await import('typeorm');

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (value, digits = 1) => Number(value.toFixed(digits));

/** Milliseconds of each of `count` calls of `work(i)`, one after another, after a few unmeasured ones. */
async function timed(count, work) {
  for (let i = 0; i < 5; i++) await work(i);
  const times = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await work(i);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

// --- the corpus: English source strings with each app's own translation ---------------------

const readJson = (file) => JSON.parse(readFileSync(path.join(CORPUS, file), 'utf8'));
const flatten = (object, prefix = '') =>
  Object.entries(object).flatMap(([key, value]) => (typeof value === 'string' ? [[prefix + key, value]] : value && typeof value === 'object' ? flatten(value, `${prefix}${key}.`) : []));
const messages = (file) => Object.fromEntries(Object.entries(readJson(file)).map(([key, value]) => [key, value.message]));

/** [English file, translated file] readers per app; a language the app lacks throws and is skipped. */
const APPS = {
  'lemmy-ui': (lang) => [readJson('locales/lemmy/frontend/en.json'), readJson(`locales/lemmy/frontend/${lang}.json`)],
  'lemmy server': (lang) => [readJson('locales/lemmy/backend/en.json'), readJson(`locales/lemmy/backend/${lang}.json`)],
  'Flutter Gallery': (lang) => [readJson('locales/flutter-gallery/intl_en.arb'), readJson(`locales/flutter-gallery/intl_${lang === 'pt' ? 'pt_PT' : lang}.arb`)],
  'Privacy Badger': (lang) => [messages('locales/privacy-badger/en_US/messages.json'), messages(`locales/privacy-badger/${lang === 'pt' ? 'pt_PT' : lang}/messages.json`)],
};

async function gnomeWeather(lang) {
  if (lang !== 'de') return [];
  const { po } = await import('gettext-parser');
  const catalog = po.parse(readFileSync(path.join(CORPUS, 'po/gnome-weather.de.po')));
  return Object.values(catalog.translations).flatMap((entries) => Object.values(entries).filter((entry) => entry.msgid && !entry.msgid_plural && entry.msgstr[0]).map((entry) => [entry.msgid, entry.msgstr[0]]));
}

const isShort = (text) => text.trim().split(/\s+/).length <= SHORT_WORDS && text.length <= SHORT_CHARACTERS && !/[<\n]/.test(text);

/** Distinct short English strings with the app's translation (the first app's where several have one); untranslated ones left out. */
async function referencePairs(lang) {
  const pairs = new Map();
  const add = (source, target) => {
    if (typeof target !== 'string' || !target.trim() || target === source || !isShort(source) || pairs.has(source)) return;
    pairs.set(source, target.trim());
  };
  for (const load of Object.values(APPS)) {
    let files;
    try {
      files = load(lang);
    } catch {
      continue;
    }
    const translated = new Map(flatten(files[1]));
    for (const [key, source] of flatten(files[0])) if (!key.startsWith('@')) add(source, translated.get(key));
  }
  for (const [source, target] of await gnomeWeather(lang)) add(source, target);
  return [...pairs];
}

// --- the database ---------------------------------------------------------------------------

const database = await createBenchDatabase('bench_memory');
const stopBeat = heartbeat('memory benchmark');
try {
  await L.runMigrations(database.url, L.translationDomain);
  const dataSource = new DataSource({ ...L.dataSourceOptions(database.url, L.translationDomain, 4), entities: [L.Memory, L.MemoryEntry] });
  await dataSource.initialize();
  const catalog = new L.CatalogEntriesLookup(dataSource);
  const memory = new L.TranslationMemory(new L.MemoryRepository(dataSource.getRepository(L.Memory)), new L.MemoryEntryRepository(dataSource.getRepository(L.MemoryEntry)), catalog);
  const metrics = [];
  const tables = [];

  // 1. The build.
  console.log('building the catalog memory from the installed catalogs...');
  const languages = values.quick ? ['de', 'fr'] : undefined;
  const buildStart = Date.now();
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 200);
  const built = await new L.CatalogBuilder(dataSource, { languages, log: (line) => console.log(`  ${line}`) }).build();
  clearInterval(sampler);
  const buildSeconds = (Date.now() - buildStart) / 1000;
  const unchangedStart = Date.now();
  const again = await new L.CatalogBuilder(dataSource, { languages }).build();
  const unchangedSeconds = (Date.now() - unchangedStart) / 1000;
  const [{ rows: catalogRows, bytes }] = await database.query(`SELECT count(*)::int AS rows, pg_total_relation_size('translation.catalog_entries')::bigint AS bytes FROM translation.catalog_entries`);
  metrics.push(
    { id: 'catalog_build_s', label: 'Catalog build, every EU language', value: round(buildSeconds), unit: 's' },
    { id: 'catalog_build_rss', label: 'Catalog build, peak memory of the process', value: Math.round(peakRss / 2 ** 20), unit: 'MiB' },
    { id: 'catalog_unchanged_s', label: 'Catalog build with nothing changed (skipped)', value: round(unchangedSeconds, 2), unit: 's', note: again.status },
    { id: 'catalog_rows', label: 'Catalog entries (key and candidate translation)', value: catalogRows, unit: 'rows', note: `${Math.round(Number(bytes) / 2 ** 20)} MiB with its index` },
  );
  const strings = new Map(built.languages.map((language) => [language.language, language.keys]));

  // 2. Coverage against the apps' own translations.
  const coverageRows = [];
  for (const [lang, keys] of strings) {
    const pairs = await referencePairs(lang);
    if (pairs.length === 0) {
      coverageRows.push([lang, keys, '-', '-', '-', '-', '-', 'no reference in the corpus']);
      continue;
    }
    const masked = pairs.map(([source]) => L.maskTokens(L.tokensOfPlainText(source)));
    const found = await memory.lookup({ accountId: randomUUID(), sandbox: true, source: 'en', target: lang, segments: masked.map((text) => text.text), catalog: masked.map(() => true) });
    let covered = 0;
    let exact = 0;
    let exactButCase = 0;
    const oneWord = { all: 0, covered: 0 };
    found.forEach((match, i) => {
      const single = !/\s/.test(pairs[i][0].trim());
      if (single) oneWord.all++;
      if (!match) return;
      covered++;
      if (single) oneWord.covered++;
      const answer = L.readable({ text: match.target, codes: masked[i].codes }).normalize('NFC');
      const reference = pairs[i][1].normalize('NFC');
      if (answer === reference) exact++;
      if (answer.toLocaleLowerCase(lang) === reference.toLocaleLowerCase(lang)) exactButCase++;
    });
    const coverage = (100 * covered) / pairs.length;
    const exactShare = covered ? (100 * exact) / covered : 0;
    const judged = keys >= L.SMALL_CATALOG_STRINGS;
    coverageRows.push([
      lang,
      keys,
      pairs.length,
      round(coverage),
      round(exactShare),
      covered ? round((100 * exactButCase) / covered) : '-',
      oneWord.all ? round((100 * oneWord.covered) / oneWord.all) : '-',
      judged ? '' : `catalogs hold fewer than ${L.SMALL_CATALOG_STRINGS} strings`,
    ]);
    if (judged) {
      metrics.push(
        { id: `coverage_${lang}`, label: `Catalog coverage of short UI strings, ${lang}`, value: round(coverage), unit: '%', target: { op: '>=', value: 40 } },
        { id: `exact_${lang}`, label: `Catalog answers equal to the app's translation, ${lang}`, value: round(exactShare), unit: '%', target: { op: '>=', value: 60 } },
      );
    }
  }
  tables.push({
    title: `Catalog coverage of short UI strings (at most ${SHORT_WORDS} words and ${SHORT_CHARACTERS} characters) against the apps' own translations`,
    columns: ['language', 'catalog strings', 'reference strings', 'covered %', 'exact % of covered', 'equal but for case % of covered', 'covered % of one-word strings', 'note'],
    rows: coverageRows,
  });

  // 3. Lookup and suggestion cost as the memories and the catalog grow.
  const [account] = await database.query(`INSERT INTO translation.accounts (name) VALUES ($1) RETURNING id`, [`bench-${randomUUID()}`]);
  const mode = { accountId: account.id, sandbox: true };
  /** Real English interface strings (the catalog's keys) to make entries of: plain ones, which read back as themselves. */
  const base = (await database.query(`SELECT DISTINCT key FROM translation.catalog_entries WHERE target_lang = 'de' AND key !~ '[<&]' ORDER BY key`)).map((row) => row.key);
  const words = [...new Set(base.flatMap((key) => key.toLowerCase().split(/[^a-z]+/)).filter((word) => word.length > 3))];
  /** The i-th distinct text: a real string, then the same strings with one or two more words. */
  const textOf = (i) => {
    const pass = Math.floor(i / base.length);
    return pass === 0 ? base[i] : `${base[i % base.length]} ${words[pass % words.length]}${pass >= words.length ? ` ${words[Math.floor(pass / words.length) % words.length]}` : ''}`;
  };
  const queries = Array.from({ length: 50 }, (_, i) => base[(i * 7919) % base.length]);
  const requests = Array.from({ length: 64 }, (_, r) => Array.from({ length: SEGMENTS_PER_REQUEST }, (_, s) => base[(r * 104_729 + s * 7_919) % base.length]));
  const memoryIds = [];
  let memoryEntries = 0;

  /** Adds entries to the account's memories until it holds `count`, up to ENTRIES_PER_MEMORY per memory. */
  async function fillMemories(count) {
    while (memoryEntries < count) {
      if (memoryEntries % ENTRIES_PER_MEMORY === 0) {
        const [created] = await database.query(`INSERT INTO translation.memories (account_id, sandbox, name, source) VALUES ($1, true, $2, 'en') RETURNING id`, [account.id, `bench ${memoryIds.length}`]);
        memoryIds.push(created.id);
      }
      const upTo = Math.min(count, (Math.floor(memoryEntries / ENTRIES_PER_MEMORY) + 1) * ENTRIES_PER_MEMORY, memoryEntries + 5_000);
      const texts = Array.from({ length: upTo - memoryEntries }, (_, i) => textOf(memoryEntries + i));
      await database.query(
        `INSERT INTO translation.memory_entries (memory_id, source_lang, target_lang, source_text, target_text, source_key, source_hash, origin)
         SELECT $1, 'en', 'de', t, t || ' (de)', t, h, 'import' FROM unnest($2::text[], $3::text[]) AS r(t, h)`,
        [memoryIds.at(-1), texts, texts.map((text) => createHash('sha256').update(L.memoryKey(text)).digest('hex'))],
      );
      memoryEntries = upTo;
    }
    await database.query(`UPDATE translation.memories m SET entry_count = (SELECT count(*) FROM translation.memory_entries e WHERE e.memory_id = m.id) WHERE account_id = $1`, [account.id]);
    // As autovacuum would in time: the trigram index's pending list merged, statistics taken.
    await database.query('VACUUM ANALYZE translation.memory_entries');
  }

  /** `count` entries of one language pair in the active build: en → ga, whose real entries (coverage is measured above) make way. */
  async function syntheticCatalog(count) {
    await database.query(`DELETE FROM translation.catalog_entries WHERE target_lang = 'ga' AND build_id = (SELECT id FROM translation.catalog_builds WHERE status = 'active')`);
    const [{ id: build }] = await database.query(`SELECT id FROM translation.catalog_builds WHERE status = 'active'`);
    for (let from = 0; from < count; from += 5_000) {
      const texts = Array.from({ length: Math.min(5_000, count - from) }, (_, i) => textOf(from + i));
      await database.query(
        `INSERT INTO translation.catalog_entries (build_id, source_lang, target_lang, key_hash, key, target, agreement, provenance)
         SELECT $1, 'en', 'ga', h, k, k || ' (ga)', 1, '[{"package":"bench","domain":"bench","licence":"none"}]' FROM unnest($2::bytea[], $3::text[]) AS r(h, k)`,
        [build, texts.map((text) => L.keyHash(text)), texts],
      );
    }
    await database.query('ANALYZE translation.catalog_entries');
  }

  const scaleRows = [];
  let previous;
  for (const size of SIZES) {
    const stop = heartbeat(`${size} entries`);
    await fillMemories(size);
    await syntheticCatalog(size);
    stop();
    const lookupTimes = await timed(TIMED_REQUESTS, (i) => memory.lookup({ ...mode, source: 'en', target: 'de', segments: requests[i % requests.length], catalog: requests[0].map(() => true) }));
    const catalogTimes = await timed(TIMED_REQUESTS, (i) => catalog.exact('en', 'ga', requests[i % requests.length]));
    const suggestionTimes = await timed(TIMED_REQUESTS / 2, (i) => memory.suggestions({ ...mode, source: 'en', target: 'de', q: `${queries[i % queries.length]} now` }));
    const row = {
      size,
      lookupP50: percentile(lookupTimes, 50),
      lookupP99: percentile(lookupTimes, 99),
      catalogP50: percentile(catalogTimes, 50),
      catalogP99: percentile(catalogTimes, 99),
      suggestP50: percentile(suggestionTimes, 50),
      suggestP99: percentile(suggestionTimes, 99),
    };
    const growth = previous ? round(Math.log(row.suggestP50 / previous.suggestP50) / Math.log(size / previous.size), 2) : '';
    scaleRows.push([size, round(row.lookupP50, 2), round(row.lookupP99, 2), round(row.catalogP50, 2), round(row.catalogP99, 2), round(row.suggestP50, 2), round(row.suggestP99, 2), growth]);
    console.log(`  ${size} entries: lookup p50 ${row.lookupP50.toFixed(2)} ms, catalog p50 ${row.catalogP50.toFixed(2)} ms, suggestions p50 ${row.suggestP50.toFixed(2)} / p99 ${row.suggestP99.toFixed(2)} ms`);
    previous = row;
  }
  const last = scaleRows.at(-1);
  metrics.push(
    { id: 'load_average', label: 'Load average of the machine when done (other work slows every figure)', value: round(os.loadavg()[0], 2), unit: '' },
    { id: 'suggestions_p99', label: `Fuzzy suggestions p99 at ${last[0]} entries`, value: last[6], unit: 'ms', target: { op: '<=', value: 20 } },
    { id: 'lookup_p50', label: `Memory lookup per request (${SEGMENTS_PER_REQUEST} texts, memories and catalog), p50 at ${last[0]} entries`, value: last[1], unit: 'ms' },
    { id: 'lookup_p99', label: `Memory lookup per request, p99 at ${last[0]} entries`, value: last[2], unit: 'ms' },
  );
  tables.push({
    title: `Cost growth: lookup per request of ${SEGMENTS_PER_REQUEST} texts and fuzzy suggestions, by entries in the account's memories and in one language pair of the catalog (ms)`,
    columns: ['entries', 'lookup p50 (ms)', 'lookup p99 (ms)', 'catalog alone p50 (ms)', 'catalog alone p99 (ms)', 'suggestions p50 (ms)', 'suggestions p99 (ms)', 'growth of suggestions p50 (1 = linear)'],
    rows: scaleRows,
  });
  await dataSource.destroy();
  writeBenchResult({ name: 'memory', title: 'Translation memory: catalog build and coverage, lookup and suggestion cost', startedAt, metrics, tables });
  for (const table of tables) {
    console.log(`\n${table.title}\n${table.columns.join(' | ')}`);
    for (const row of table.rows) console.log(row.join(' | '));
  }
} finally {
  stopBeat();
  await database.drop();
}
