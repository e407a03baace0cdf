#!/usr/bin/env node
// Throughput of POST /api/v1/translate beside raw Apertium on the same English input, in one run.
// Raw: the Debian `apertium` command translating all sentences in one process (its best case).
// API: a built translate-api on a free port, 50 texts per request, a few requests in flight.
// Usage: node bench/translate-throughput.mjs [--sentences N] [--concurrency C]
// Needs Postgres and Redis (as for `npm start`); uses DATABASE_URL/REDIS_URL when given.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { parseArgs } from 'node:util';
import path from 'node:path';
import { startBenchApp } from './bench-app.mjs';

const { values } = parseArgs({ options: { sentences: { type: 'string', default: '2000' }, concurrency: { type: 'string', default: '4' } } });
const SENTENCES = Number(values.sentences);
const CONCURRENCY = Number(values.concurrency);
const TEXTS_PER_REQUEST = 50;

const PHRASES = [
  'The cat is sleeping on the red sofa.',
  'Our office in Brussels opens at nine in the morning.',
  'Please send the signed contract before the end of the week.',
  'The new train line connects the airport with the city centre.',
  'Customers can return any product within thirty days.',
  'The weather will be sunny with light wind from the north.',
  'We thank you for your patience during the maintenance.',
  'The committee approved the budget for the next year.',
];
const texts = Array.from({ length: SENTENCES }, (_, i) => `${PHRASES[i % PHRASES.length].slice(0, -1)} number ${i + 1}.`);
const segmenter = new Intl.Segmenter('en', { granularity: 'word' });
const words = texts.reduce((sum, text) => sum + [...segmenter.segment(text)].filter((s) => s.isWordLike).length, 0);

async function rawApertium() {
  // The apertium script wants a file or a real pipe on stdin, not Node's socket.
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-'));
  const input = path.join(dir, 'input.txt');
  const output = path.join(dir, 'output.txt');
  writeFileSync(input, texts.join('\n'));
  const started = performance.now();
  const child = spawn('apertium', ['-u', 'eng-spa', input, output], { stdio: 'inherit' });
  const [code] = await once(child, 'close');
  const seconds = (performance.now() - started) / 1000;
  const translated = readFileSync(output, 'utf8');
  rmSync(dir, { recursive: true });
  if (code !== 0 || !translated.includes('gato')) throw new Error(`apertium failed (exit ${code})`);
  return seconds;
}

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

const rawSeconds = await rawApertium();
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
