#!/usr/bin/env node
// POST /api/v1/translate beside raw Apertium and beside Apertium's own HTTP server (APy), on the
// same English input, in one run.
// Raw: the Debian `apertium` command translating all sentences in one process (its best case).
// Engine alone: the platform's Apertium engine in this process, no service around it: once as
// the API sends it (every text its own NUL-flushed segment) and once with each request's texts
// joined into one segment, which shows what the per-text flush costs.
// Bulk: 50 texts per request, a few requests in flight. Small: one sentence per request, 8 in
// flight, with latency percentiles. Each part prints where the machine's CPU went meanwhile (the
// service, Apertium's stages, Postgres, the load generator, ...). Requests go over node:http with
// keep-alive, the lightest client at hand, since the load generator shares the cores.
// APy runs on a free port with the installed modes when `apertium-apy` is installed (installed
// with apt-get when missing and running as root; otherwise its part is skipped).
// Usage: node bench/translate-throughput.mjs [--quick] [--profile] [--sentences N] [--concurrency C] [--small N] [--pipelines N]
//   --profile writes translate-api's CPU profile to bench/results/profiles/
//   --pipelines N gives translate-api N Apertium pipelines per mode (APERTIUM_PIPELINES_PER_MODE)
// Needs Postgres and Redis (as for `npm start`): a scratch database and a leased Redis database.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { parseArgs } from 'node:util';
import path from 'node:path';
import { CpuWatch, createBenchDatabase, ensureDebianPackage, formatShares, leaseBenchRedis, startBenchApp } from './bench-app.mjs';
import { importLibs } from './bench-libs.mjs';
import { benchTexts, countWords, rawApertiumSeconds } from './bench-apertium.mjs';
import { heartbeat, RESULTS_DIR, writeBenchResult } from './bench-report.mjs';
import { freePorts } from '../tools/stack/own-infra.mjs';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    sentences: { type: 'string' },
    concurrency: { type: 'string', default: '4' },
    small: { type: 'string' },
    'small-concurrency': { type: 'string', default: '8' },
    pipelines: { type: 'string' },
  },
});
const SENTENCES = Number(values.sentences ?? (values.quick ? 400 : 2000));
const CONCURRENCY = Number(values.concurrency);
const SMALL_REQUESTS = Number(values.small ?? (values.quick ? 300 : 3000));
const SMALL_CONCURRENCY = Number(values['small-concurrency']);
const TEXTS_PER_REQUEST = 50;
const MODES_DIR = '/usr/share/apertium/modes';
const startedAt = Date.now();
const PROFILE_DIR = path.join(RESULTS_DIR, 'profiles');

const texts = benchTexts(SENTENCES);
const words = countWords(texts);
const batches = [];
for (let i = 0; i < texts.length; i += TEXTS_PER_REQUEST) batches.push(texts.slice(i, i + TEXTS_PER_REQUEST));

/** Runs `jobs` through `send`, `concurrency` at a time; returns the seconds and each job's latency in ms. */
async function drive(jobs, concurrency, send) {
  let next = 0;
  const latencies = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++];
        const sent = performance.now();
        await send(job);
        latencies.push(performance.now() - sent);
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, latencies: latencies.sort((a, b) => a - b) };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(CONCURRENCY, SMALL_CONCURRENCY) });

/** POSTs `body` to `url` on the keep-alive agent; the status and the parsed JSON answer. */
function post(url, headers, body) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: response.statusCode, body: JSON.parse(text) });
        } catch {
          reject(new Error(`${url} answered ${response.statusCode}: ${text.slice(0, 200)}`));
        }
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

function translateApi({ url, secret }) {
  return async (batch) => {
    const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
    const { status, body } = await post(`${url}/api/v1/translate`, headers, JSON.stringify({ source: 'en', target: 'es', texts: batch }));
    if (status !== 200) throw new Error(`translate answered ${status}: ${JSON.stringify(body)}`);
    return body.words;
  };
}

function translateApy(url) {
  // APy translates one text per request; a batch goes as lines of one text, as its clients do.
  return async (batch) => {
    const form = new URLSearchParams({ langpair: 'eng|spa', q: batch.join('\n') }).toString();
    const { status, body } = await post(`${url}/translate`, { 'content-type': 'application/x-www-form-urlencoded' }, form);
    if (status !== 200 || !body.responseData) throw new Error(`APy answered ${status}: ${JSON.stringify(body)}`);
    return body.responseData.translatedText;
  };
}

/** APy on a free port, or the reason it is skipped. */
async function startApy() {
  const { missing } = ensureDebianPackage('apertium-apy', '/usr/bin/apertium-apy');
  if (missing) return { skipped: missing };
  const [port] = await freePorts(1);
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-apy-'));
  // One warm pipe per pair, as our API keeps by default; -l gives it a names database of its own.
  const child = spawn('apertium-apy', ['-p', String(port), '-l', path.join(dir, 'names.db'), '-n', '1', path.dirname(MODES_DIR)], { cwd: dir, stdio: ['ignore', 'ignore', 'ignore'] });
  const url = `http://127.0.0.1:${port}`;
  const stop = () => {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 150; i++) {
    if (await fetch(`${url}/listPairs`).then((r) => r.ok, () => false)) return { url, stop, pid: child.pid };
    await new Promise((r) => setTimeout(r, 200));
  }
  stop();
  return { skipped: 'APy did not answer on its port' };
}

/** Runs `jobs` through `send` like `drive`, and where the machine's CPU went meanwhile. */
async function driveWatched(label, jobs, concurrency, send, names) {
  const watch = new CpuWatch({ ...names, [process.pid]: 'load generator' });
  const run = await watch.during(() => drive(jobs, concurrency, send));
  const shares = watch.shares();
  console.log(`${label}, CPU in % of one core: ${formatShares(shares)}`);
  return { ...run, shares };
}

/** Bulk and small runs against one server; `translate(batch)` answers one request; `names` names its pids in the CPU shares. */
async function measure(label, translate, names, smallRequests = SMALL_REQUESTS) {
  const stop = heartbeat(`${label}: bulk`);
  await translate(batches[0]); // warm the pipeline and the connection pool
  const bulk = await driveWatched(`${label}, bulk`, batches, CONCURRENCY, translate, names);
  stop();
  const stopSmall = heartbeat(`${label}: small`);
  const singles = benchTexts(smallRequests).map((text) => [text]);
  await drive(singles.slice(0, SMALL_CONCURRENCY * 4), SMALL_CONCURRENCY, translate); // warm
  const small = await driveWatched(`${label}, small`, singles, SMALL_CONCURRENCY, translate, names);
  stopSmall();
  const result = {
    wordsPerS: words / bulk.seconds,
    requestsPerS: smallRequests / small.seconds,
    p50: percentile(small.latencies, 50),
    p99: percentile(small.latencies, 99),
    shares: { bulk: bulk.shares, small: small.shares },
  };
  console.log(
    `${label}: bulk ${result.wordsPerS.toFixed(0)} words/s; small ${result.requestsPerS.toFixed(0)} req/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms`,
  );
  return result;
}

/**
 * The engine alone, in this process, on the bulk input: as the API sends it (each text its own
 * segment, flushed through every stage on its own) and with each request's texts as one segment.
 */
async function engineAlone() {
  const engine = new ApertiumEngine();
  try {
    const translate = (segments) => engine.translate({ source: 'en', target: 'es', segments });
    await translate(batches[0]); // start the pipeline
    const perText = await driveWatched('engine alone, a segment per text', batches, CONCURRENCY, translate, {});
    const joined = await driveWatched('engine alone, a segment per request', batches, CONCURRENCY, (batch) => translate([batch.join(' ')]), {});
    return { perText: words / perText.seconds, joined: words / joined.seconds, shares: perText.shares };
  } finally {
    await engine.close();
  }
}

console.log(`input: ${SENTENCES} sentences, ${words} words, en -> es, ${TEXTS_PER_REQUEST} texts per request, ${CONCURRENCY} in flight; small: ${SMALL_REQUESTS} single sentences, ${SMALL_CONCURRENCY} in flight${values.pipelines ? `; translate-api with ${values.pipelines} pipelines per mode` : ''}`);
const stopRaw = heartbeat('raw apertium');
const rawSeconds = await rawApertiumSeconds(texts);
const raw = words / rawSeconds;
console.log(`raw apertium: ${raw.toFixed(0)} words/s (${rawSeconds.toFixed(2)} s)`);
// The services run Apertium's programs on tcmalloc; raw stays the command as Debian ships it, and
// the same command on tcmalloc shows how much of the engine's figure is the allocator.
const { ApertiumEngine, allocatorLibrary } = await importLibs({
  ApertiumEngine: 'translation-engines/src/apertium/apertium.engine.ts',
  allocatorLibrary: 'translation-engines/src/apertium/apertium-allocator.ts',
});
const tcmalloc = allocatorLibrary('tcmalloc');
const rawTcmalloc = tcmalloc ? words / (await rawApertiumSeconds(texts, { LD_PRELOAD: tcmalloc })) : undefined;
stopRaw();
if (rawTcmalloc) console.log(`raw apertium on tcmalloc: ${rawTcmalloc.toFixed(0)} words/s`);
const stopEngine = heartbeat('engine alone');
const engine = await engineAlone();
stopEngine();
console.log(`engine alone: ${engine.perText.toFixed(0)} words/s a segment per text, ${engine.joined.toFixed(0)} words/s a segment per request`);

const database = await createBenchDatabase('bench_translate');
const redis = await leaseBenchRedis();
let ours;
let server;
try {
  server = await startBenchApp('translate-api', {
    env: {
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      RATE_LIMIT_PER_MINUTE: '1000000',
      TRANSLATION_ENGINE: 'apertium',
      ...(values.pipelines ? { APERTIUM_PIPELINES_PER_MODE: values.pipelines } : {}),
    },
    setup: [['account:create', 'benchmark']],
    admin: ['key:create', '--account', 'benchmark'],
    extraNodeArgs: values.profile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [],
  });
  const translate = translateApi(server);
  ours = await measure(
    'translate API',
    async (batch) => {
      const counted = await translate(batch);
      if (counted !== countWords(batch)) throw new Error(`the API counted ${counted} words for ${batch.length} texts`);
    },
    { [server.child.pid]: 'translate-api' },
  );
} finally {
  await server?.stop();
  await redis.release();
  await database.drop();
}

const apy = await startApy();
let theirs;
if (apy.skipped) console.log(`APy skipped: ${apy.skipped}`);
else {
  try {
    // APy answers a few small requests a second here: fewer of them give its rate as well.
    theirs = await measure('APy', translateApy(apy.url), { [apy.pid]: 'apertium-apy' }, Math.min(SMALL_REQUESTS, 400));
  } finally {
    apy.stop();
  }
}

const apyNote = apy.skipped ? `APy skipped: ${apy.skipped}` : undefined;
writeBenchResult({
  name: 'translate-throughput',
  title: 'Translate: bulk and small requests beside raw Apertium and APy (en -> es)',
  startedAt,
  metrics: [
    { id: 'raw-words-per-s', label: 'Raw apertium', value: raw, unit: 'words/s' },
    { id: 'engine-words-per-s', label: 'Engine alone, a segment per text', value: engine.perText, unit: 'words/s' },
    { id: 'engine-vs-raw', label: 'Engine alone / raw apertium', value: engine.perText / raw, unit: '×' },
    { id: 'engine-joined-vs-raw', label: 'Engine alone, a segment per request / raw apertium', value: engine.joined / raw, unit: '×' },
    rawTcmalloc
      ? { id: 'raw-tcmalloc-words-per-s', label: 'Raw apertium on tcmalloc, as the engine runs it', value: rawTcmalloc, unit: 'words/s' }
      : { id: 'raw-tcmalloc-words-per-s', label: 'Raw apertium on tcmalloc, as the engine runs it', value: 'skipped', unit: 'words/s', note: 'libtcmalloc-minimal4 is not installed' },
    { id: 'api-words-per-s', label: 'Translate API, bulk', value: ours.wordsPerS, unit: 'words/s' },
    { id: 'bulk-vs-raw', label: 'Bulk: API / raw apertium', value: ours.wordsPerS / raw, unit: '×', target: { op: '>=', value: 0.9, label: '≥ 0.90 × raw' } },
    { id: 'apy-words-per-s', label: 'APy, bulk', value: theirs?.wordsPerS ?? 'skipped', unit: 'words/s', note: apyNote },
    { id: 'api-small-rps', label: 'Translate API, small', value: ours.requestsPerS, unit: 'req/s' },
    { id: 'api-small-p50', label: 'Translate API, small p50', value: ours.p50, unit: 'ms' },
    { id: 'api-small-p99', label: 'Translate API, small p99', value: ours.p99, unit: 'ms', target: { op: '<=', value: 25, label: '≤ 25 ms' } },
    { id: 'apy-small-rps', label: 'APy, small', value: theirs?.requestsPerS ?? 'skipped', unit: 'req/s', note: apyNote },
    { id: 'apy-small-p50', label: 'APy, small p50', value: theirs?.p50 ?? 'skipped', unit: 'ms', note: apyNote },
    theirs
      ? { id: 'small-vs-apy', label: 'Small: API / APy req/s', value: ours.requestsPerS / theirs.requestsPerS, unit: '×', target: { op: '>=', value: 3, label: '≥ 3 × APy' } }
      : { id: 'small-vs-apy', label: 'Small: API / APy req/s', value: 'skipped', unit: '×', note: apyNote },
  ],
  tables: [
    {
      title: 'Where the CPU went, in % of one core (2 cores = 200 %)',
      columns: ['part', 'process', 'CPU %'],
      rows: [
        ...engine.shares.map(({ name, percent }) => ['engine alone, bulk', name, Number(percent.toFixed(0))]),
        ...[ours, theirs].filter(Boolean).flatMap((result, i) =>
          ['bulk', 'small'].flatMap((part) => result.shares[part].map(({ name, percent }) => [`${i === 0 ? 'translate API' : 'APy'}, ${part}`, name, Number(percent.toFixed(0))])),
        ),
      ],
    },
  ],
});
