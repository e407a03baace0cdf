#!/usr/bin/env node
// Translation quality against human references: the English strings of real apps' locale files
// (shared/corpus: Flutter Gallery, Lemmy's front end and server, Privacy Badger) translated into
// es, fr, it and pt through POST /api/v1/translate, each string one text, and compared with the
// same apps' own translations: exact matches and chrF (sacreBLEU's default, libs/testing/src/chrf.ts),
// for short strings (1 to 3 words) and longer ones, per language. Twice: the engine alone
// (`memory: false`) and memory first (the default: the account's memories, then the catalog for
// whole short texts, then the engine), for a fresh account, so what memory first adds is what the
// catalog holds. Where the catalog is empty both runs are the same, and the run says so.
// Only keys both files have are compared, and only strings whose human translation differs from
// the English (names and untranslated strings say nothing about a translation).
// Usage: node bench/translation-quality.mjs [--quick] [--languages es,fr] [--catalog] [--database-url URL]
//   --quick: every fourth string
//   --catalog: build the catalog of the languages from the machine's message catalogs first
//   (`admin catalog:build`, a few minutes), as `npm start` does; without it the scratch database's
//   catalog is empty
//   --database-url: a migrated database to run against (one whose catalog was built), instead of
//   a scratch database migrated here
// Needs Postgres and Redis (as for `npm start`).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createBenchDatabase, leaseBenchRedis, startBenchApp } from './bench-app.mjs';
import { importLibs } from './bench-libs.mjs';
import { heartbeat, writeBenchResult } from './bench-report.mjs';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    catalog: { type: 'boolean', default: false },
    languages: { type: 'string', default: 'es,fr,it,pt' },
    'database-url': { type: 'string' },
  },
});
const LANGUAGES = values.languages.split(',').map((code) => code.trim());
const CORPUS = process.env.CORPUS_DIR ?? path.resolve(import.meta.dirname, '../../shared/corpus');
const TEXTS_PER_REQUEST = 50;
const CHARACTERS_PER_REQUEST = 30_000;
const SHORT_WORDS = 3;
/** Targets: exact matches of short strings with memory first, averaged over the languages; chrF of short strings over the engine alone. */
const EXACT_SHORT_TARGET = 35;
const CHRF_SHORT_GAIN_TARGET = 5;
const startedAt = Date.now();

const { chrF, countWords, maskedText } = await importLibs({
  chrF: 'testing/src/chrf.ts',
  countWords: 'translation-pipeline/src/segments/word-count.ts',
  maskedText: 'translation-pipeline/src/memory-forms.ts',
});

const json = (file) => JSON.parse(readFileSync(path.join(CORPUS, file), 'utf8'));
const strings = (document) => Object.fromEntries(Object.entries(document).filter(([key, value]) => typeof value === 'string' && !key.startsWith('@')));
const messages = (document) => Object.fromEntries(Object.entries(document).map(([key, value]) => [key, value.message]));
/** Each app's English strings and, per language, its human translations, by key. */
const APPS = [
  { name: 'flutter-gallery', read: (language) => strings(json(`locales/flutter-gallery/intl_${language === 'pt' ? 'pt_PT' : language}.arb`)) },
  { name: 'lemmy-frontend', read: (language) => strings(json(`locales/lemmy/frontend/${language}.json`)) },
  { name: 'lemmy-backend', read: (language) => strings(json(`locales/lemmy/backend/${language}.json`)) },
  { name: 'privacy-badger', read: (language) => messages(json(`locales/privacy-badger/${language === 'en' ? 'en_US' : language === 'pt' ? 'pt_PT' : language}/messages.json`)) },
];

/** The words of a string as billed: variables, markup and template syntax left out. */
const wordsOf = (text) => countWords(maskedText(text).text.replace(/<[^>]*>/g, ' ').replace(/&(?:amp|lt|gt);/g, ' '));

function pairsFor(language) {
  const pairs = APPS.flatMap(({ read }) => {
    const english = read('en');
    const human = read(language);
    return Object.keys(english)
      .filter((key) => typeof human[key] === 'string' && human[key].trim() !== '' && human[key].trim() !== english[key].trim())
      .map((key) => ({ source: english[key], reference: human[key], short: wordsOf(english[key]) <= SHORT_WORDS }));
  });
  return values.quick ? pairs.filter((_, index) => index % 4 === 0) : pairs;
}

/** Requests of at most 50 texts and 30,000 characters. */
function requests(texts) {
  const batches = [[]];
  let characters = 0;
  for (const text of texts) {
    const batch = batches.at(-1);
    if (batch.length === TEXTS_PER_REQUEST || (batch.length > 0 && characters + text.length > CHARACTERS_PER_REQUEST)) {
      batches.push([]);
      characters = 0;
    }
    batches.at(-1).push(text);
    characters += text.length;
  }
  return batches.filter((batch) => batch.length > 0);
}

async function translateAll(server, language, texts, memory) {
  const translations = [];
  const origins = [];
  for (const batch of requests(texts)) {
    const res = await fetch(`${server.url}/api/v1/translate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ source: 'en', target: language, texts: batch, memory }),
    });
    const body = await res.json();
    if (res.status !== 200) throw new Error(`translate en→${language} answered ${res.status}: ${JSON.stringify(body)}`);
    translations.push(...body.translations);
    origins.push(...body.origins);
  }
  return { translations, origins };
}

function scores(pairs, translations) {
  const score = (filter) => {
    const chosen = pairs.flatMap((pair, index) => (filter(pair) ? [{ ...pair, hypothesis: translations[index] }] : []));
    const exact = chosen.filter(({ hypothesis, reference }) => hypothesis.trim() === reference.trim()).length;
    return {
      count: chosen.length,
      exact: chosen.length ? (100 * exact) / chosen.length : 0,
      chrF: chosen.length ? chrF(chosen.map(({ hypothesis }) => hypothesis), chosen.map(({ reference }) => reference)) : 0,
    };
  };
  return { short: score((pair) => pair.short), long: score((pair) => !pair.short) };
}

const database = values['database-url'] ? undefined : await createBenchDatabase('bench_quality');
const redis = await leaseBenchRedis();
const account = `quality-${Date.now()}`;
const results = [];
let server;
try {
  server = await startBenchApp('translate-api', {
    env: { DATABASE_URL: values['database-url'] ?? database.url, REDIS_URL: redis.url, RATE_LIMIT_PER_MINUTE: '1000000', TRANSLATION_ENGINE: 'apertium' },
    setup: [['account:create', account], ...(values.catalog ? [['catalog:build', '--languages', LANGUAGES.join(',')]] : [])],
    admin: ['key:create', '--account', account],
  });
  for (const language of LANGUAGES) {
    const pairs = pairsFor(language);
    const texts = pairs.map(({ source }) => source);
    const stop = heartbeat(`en→${language}, ${texts.length} strings`);
    const engine = await translateAll(server, language, texts, false);
    const memoryFirst = await translateAll(server, language, texts, true);
    stop();
    const hits = { memory: 0, catalog: 0 };
    for (const origin of memoryFirst.origins) if (origin in hits) hits[origin]++;
    results.push({ language, pairs: pairs.length, engine: scores(pairs, engine.translations), memoryFirst: scores(pairs, memoryFirst.translations), hits });
  }
} finally {
  await server?.stop();
  await redis.release();
  await database?.drop();
}

const mean = (pick) => results.reduce((sum, result) => sum + pick(result), 0) / results.length;
const format = (value) => value.toFixed(1).padStart(5);
console.log(`\nen → ${LANGUAGES.join(', ')} against the apps' own translations (short: 1–${SHORT_WORDS} words)`);
console.log('lang strings short  | exact short: engine  memory first | chrF short: engine  memory first | exact long: engine  memory first | chrF long: engine  memory first | catalog hits');
for (const { language, pairs, engine, memoryFirst, hits } of results) {
  console.log(
    `${language.padEnd(4)} ${String(pairs).padStart(7)} ${String(engine.short.count).padStart(5)}  |` +
      `              ${format(engine.short.exact)}         ${format(memoryFirst.short.exact)} |` +
      `            ${format(engine.short.chrF)}         ${format(memoryFirst.short.chrF)} |` +
      `             ${format(engine.long.exact)}         ${format(memoryFirst.long.exact)} |` +
      `           ${format(engine.long.chrF)}         ${format(memoryFirst.long.chrF)} | ${hits.catalog}`,
  );
}
const catalogHits = results.reduce((sum, result) => sum + result.hits.catalog, 0);
if (catalogHits === 0) {
  console.log(
    '\nThe catalog answered nothing (it is empty, or this app has no catalog): for a fresh account, memory first is the engine alone, and the figures of both runs are the same.',
  );
}

const exactShort = mean((result) => result.memoryFirst.short.exact);
// `+ 0` writes a gain of nothing as 0, not -0.
const chrFGain = mean((result) => result.memoryFirst.short.chrF - result.engine.short.chrF) + 0;
writeBenchResult({
  name: 'translation-quality',
  title: `Translation quality against human references (${LANGUAGES.join(', ')}): engine alone and memory first, fresh account`,
  startedAt,
  metrics: [
    { id: 'exact-short-engine', label: 'Exact matches, short strings, engine alone (mean)', value: mean((result) => result.engine.short.exact), unit: '%' },
    { id: 'exact-short-memory-first', label: 'Exact matches, short strings, memory first (mean)', value: exactShort, unit: '%', target: { op: '>=', value: EXACT_SHORT_TARGET } },
    { id: 'chrf-short-engine', label: 'chrF, short strings, engine alone (mean)', value: mean((result) => result.engine.short.chrF), unit: 'chrF' },
    { id: 'chrf-short-memory-first', label: 'chrF, short strings, memory first (mean)', value: mean((result) => result.memoryFirst.short.chrF), unit: 'chrF' },
    { id: 'chrf-short-gain', label: 'chrF gain, short strings, memory first over engine alone (mean)', value: chrFGain, unit: 'points', target: { op: '>=', value: CHRF_SHORT_GAIN_TARGET } },
    { id: 'chrf-long-engine', label: 'chrF, longer strings, engine alone (mean)', value: mean((result) => result.engine.long.chrF), unit: 'chrF' },
    { id: 'chrf-long-memory-first', label: 'chrF, longer strings, memory first (mean)', value: mean((result) => result.memoryFirst.long.chrF), unit: 'chrF' },
    { id: 'catalog-hits', label: 'Strings the catalog answered', value: catalogHits, unit: 'strings', note: catalogHits === 0 ? 'catalog empty: memory first equals the engine alone' : undefined },
  ],
  tables: [
    {
      title: 'Per language',
      columns: ['language', 'strings', 'short', 'exact short engine %', 'exact short memory first %', 'chrF short engine', 'chrF short memory first', 'exact long engine %', 'exact long memory first %', 'chrF long engine', 'chrF long memory first', 'catalog hits'],
      rows: results.map(({ language, pairs, engine, memoryFirst, hits }) => [
        language,
        pairs,
        engine.short.count,
        engine.short.exact,
        memoryFirst.short.exact,
        engine.short.chrF,
        memoryFirst.short.chrF,
        engine.long.exact,
        memoryFirst.long.exact,
        engine.long.chrF,
        memoryFirst.long.chrF,
        hits.catalog,
      ]),
    },
  ],
});
