#!/usr/bin/env node
// Throughput of POST /api/v1/translate beside raw Apertium on the same English input, in one run.
// Raw: the Debian `apertium` command translating all sentences in one process (its best case).
// API: a built translate-api on a free port, 50 texts per request, a few requests in flight.
// Usage: node bench/translate-throughput.mjs [--sentences N] [--concurrency C]
// Needs Postgres and Redis (as for `npm start`); uses DATABASE_URL/REDIS_URL when given.
import { parseArgs } from 'node:util';
import { startBenchApp } from './bench-app.mjs';
import { benchTexts, countWords, rawApertiumSeconds } from './bench-apertium.mjs';

const { values } = parseArgs({ options: { sentences: { type: 'string', default: '2000' }, concurrency: { type: 'string', default: '4' } } });
const SENTENCES = Number(values.sentences);
const CONCURRENCY = Number(values.concurrency);
const TEXTS_PER_REQUEST = 50;

const texts = benchTexts(SENTENCES);
const words = countWords(texts);

async function api({ url, secret: key }) {
  const batches = [];
  for (let i = 0; i < texts.length; i += TEXTS_PER_REQUEST) batches.push(texts.slice(i, i + TEXTS_PER_REQUEST));
  const send = (batch) =>
    fetch(`${url}/api/v1/translate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ source: 'en', target: 'es', texts: batch }),
    }).then(async (r) => {
      if (r.status !== 200) throw new Error(`translate answered ${r.status}: ${await r.text()}`);
      return r.json();
    });
  await send(batches[0]); // warm the pipeline and the connection pool
  let next = 0;
  let counted = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < batches.length) {
        const { words: translated } = await send(batches[next++]);
        counted += translated;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  if (counted !== words) throw new Error(`the API counted ${counted} words, the benchmark ${words}`);
  return seconds;
}

const rawSeconds = await rawApertiumSeconds(texts);
const server = await startBenchApp('translate-api', {
  env: { RATE_LIMIT_PER_MINUTE: '1000000', TRANSLATION_ENGINE: 'apertium' },
  admin: ['key:create', '--account', 'benchmark'],
});
try {
  const apiSeconds = await api(server);
  const raw = words / rawSeconds;
  const through = words / apiSeconds;
  console.log(`input: ${SENTENCES} sentences, ${words} words, en -> es, ${TEXTS_PER_REQUEST} texts per request, ${CONCURRENCY} in flight`);
  console.log(`raw apertium : ${raw.toFixed(0).padStart(8)} words/s  (${rawSeconds.toFixed(2)} s)`);
  console.log(`translate API: ${through.toFixed(0).padStart(8)} words/s  (${apiSeconds.toFixed(2)} s)`);
  console.log(`API / raw    : ${(through / raw).toFixed(2)}`);
} finally {
  server.child.kill('SIGTERM');
}
