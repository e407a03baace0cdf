#!/usr/bin/env node
// Throughput of POST /convert beside raw sharp on the same images and settings, in one run.
// Raw: sharp in this process with the pipeline of libs/image-conversion (upright by EXIF, fit
// inside the bounds without enlarging, ICC profile kept, WebP effort 4 / AVIF effort 2).
// API: a built image-api on a free port with a real access token, storing into an s3rver started
// here on a temporary directory, so the stack's bucket is left alone.
// Raw with storage: the raw conversion plus the storage work POST /convert does for it, through
// the platform's own object store into the same s3rver (the stored-copy lookup, the source kept
// for the other format while encoding, the result stored), so API / this figure is the request's
// own work apart from storage on the same cores.
// Every upload is unique (a random JPEG comment), so the API converts instead of serving a repeat
// from storage; the raw sides get the same bytes. The three take turns in short rounds, so a
// machine that slows down or speeds up mid-run weighs on all of them alike.
// Target: the API at least 0.9 × raw sharp's conversions per second, for each format.
// Where image-api's CPU went, by thread and library (libvips, Node, the kernel), is sampled with
// Linux perf over the whole run when perf can be had (bench/native-profile.mjs).
// Usage: node bench/image-throughput.mjs [--rounds N] [--concurrency C] [--quick]
// Postgres and Redis as for `npm start` (DATABASE_URL/REDIS_URL when given, else the local ones,
// started and the database created when needed).
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { CpuWatch, formatShares, rssMiB, secondsInFlight } from './bench-app.mjs';
import { importLibs } from './bench-libs.mjs';
import { heartbeat, writeBenchResult } from './bench-report.mjs';
import { NativeProfile } from './native-profile.mjs';
import { apiConvert, BUCKET, photoJpeg, rawConvert, SETTINGS, unique, withImageApi } from './image-bench.mjs';

const { values } = parseArgs({
  options: { rounds: { type: 'string' }, concurrency: { type: 'string', default: String(availableParallelism()) }, quick: { type: 'boolean', default: false } },
});
const ROUNDS = Number(values.rounds ?? (values.quick ? 2 : 6));
const CONCURRENCY = Number(values.concurrency);

const MAX_WIDTH = 800;
const SIZES = [
  [1600, 1200],
  [800, 600],
];
/** Conversions per format and round: every size with and without the bound, twice. */
const ROUND = SIZES.length * 2 * 2;
const CONVERSIONS = ROUNDS * ROUND;

/** One round of one format: both sizes, with and without the width bound, in turn. */
function round(images, format) {
  return Array.from({ length: ROUND }, (_, i) => ({
    format,
    input: unique(images[i % images.length]),
    maxWidth: Math.floor(i / images.length) % 2 ? MAX_WIDTH : undefined,
  }));
}

const { createS3Client, ImageObjectStore, imageId, otherFormat, StorageConfig } = await importLibs({
  createS3Client: 'storage/src/storage.module.ts',
  StorageConfig: 'storage/src/storage.config.ts',
  ImageObjectStore: 'image-conversion/src/image-object.store.ts',
  imageId: 'image-conversion/src/image-id.ts',
  otherFormat: 'image-conversion/src/image-formats.ts',
});

/** The three sides of every round, in the order they take turns. */
const SIDES = ['raw', 'stored', 'api'];

/** rawConvert with the storage round trips ConvertService makes for a new image, in its order. */
function storedConvert(store) {
  return async (job) => {
    const params = { format: job.format, maxWidth: job.maxWidth };
    const id = imageId(job.input, params);
    if (await store.get(id, job.format)) throw new Error('a unique image was found in storage');
    const pending = store.putPending(id, otherFormat(job.format), job.input, params);
    await store.put(id, job.format, await rawConvert(job));
    await pending;
  };
}

/** Conversions per second of each format and of both together, raw and through the API. */
function report(images, rows, rss, native) {
  const sum = (side) => rows.reduce((s, r) => s + r[side], 0);
  const total = { format: 'both', rawSeconds: sum('rawSeconds'), storedSeconds: sum('storedSeconds'), apiSeconds: sum('apiSeconds') };
  const described = SIZES.map(([width, height], i) => `${width}x${height} (${(images[i].length / 1024).toFixed(0)} KiB)`).join(' and ');
  const setup = `photo-like JPEGs ${described}, max_width ${MAX_WIDTH} and none, ${CONCURRENCY} in flight, ${CONVERSIONS} unique conversions per format in ${ROUNDS} alternating rounds`;
  console.log(`input: ${setup}`);
  console.log(`       webp quality ${SETTINGS.webp.quality} effort ${SETTINGS.webp.effort}, avif quality ${SETTINGS.avif.quality} effort ${SETTINGS.avif.effort}`);
  const table = {
    title: 'Conversions per second, raw sharp and through POST /convert',
    columns: ['format', 'raw sharp (/s)', 'raw sharp with storage (/s)', 'image API (/s)', 'API / raw', 'with storage / raw', 'API / with storage'],
    rows: [],
  };
  const metrics = [];
  for (const { format, rawSeconds, storedSeconds, apiSeconds } of [...rows, total]) {
    const conversions = format === 'both' ? CONVERSIONS * rows.length : CONVERSIONS;
    const [raw, stored, through] = [rawSeconds, storedSeconds, apiSeconds].map((seconds) => conversions / seconds);
    table.rows.push([format, ...[raw, stored, through, through / raw, stored / raw, through / stored].map((value) => Number(value.toFixed(2)))]);
    metrics.push(
      { id: `api-over-raw-${format}`, label: `API / raw sharp, ${format}`, value: through / raw, unit: '×', target: { op: '>=', value: 0.9, label: '0.9 × raw' }, note: `${through.toFixed(2)} vs ${raw.toFixed(2)} conversions/s; ${setup}` },
      { id: `stored-over-raw-${format}`, label: `Raw sharp with the API's storage work / raw sharp, ${format}`, value: stored / raw, unit: '×', note: `${stored.toFixed(2)} vs ${raw.toFixed(2)} conversions/s` },
      { id: `api-over-stored-${format}`, label: `API / raw sharp with the API's storage work, ${format}`, value: through / stored, unit: '×', note: `${through.toFixed(2)} vs ${stored.toFixed(2)} conversions/s` },
    );
  }
  if (rss) metrics.push({ id: 'image-api-peak-rss', label: 'image-api peak RSS during the run', value: rss, unit: 'MiB' });
  const cpu = {
    title: 'Where the CPU went, in % of one core',
    columns: ['format', 'side', 'process', 'CPU %'],
    rows: rows.flatMap(({ format, shares }) => SIDES.flatMap((side) => shares[side].map(({ name, percent }) => [format, side, name, Number(percent.toFixed(0))]))),
  };
  const tables = [table, cpu];
  if (native) {
    console.log(`image-api's CPU by thread and library (perf, both formats): ${native.map(({ thread, library, percent }) => `${thread} in ${library} ${percent.toFixed(1)}%`).join(', ')}`);
    tables.push({ title: "image-api's CPU by thread and library, both formats (perf)", columns: ['thread', 'library', '% of its CPU'], rows: native.map(({ thread, library, percent }) => [thread, library, percent]) });
  }
  return { metrics, tables };
}

const startedAt = Date.now();
// As ImageConverter does: each request brings a different image, so the operation cache only
// holds memory; one libvips thread per image (SHARP_CONCURRENCY's default).
sharp.cache(false);
sharp.concurrency(1);
const images = await Promise.all(SIZES.map(([width, height]) => photoJpeg(width, height)));
// One token sends every request; the API converts as many at once as raw sharp does.
const sameConcurrency = { CONCURRENT_REQUESTS_PER_TOKEN: String(CONCURRENCY), CONCURRENT_CONVERSIONS_PER_PROCESS: String(CONCURRENCY) };
await withImageApi(sameConcurrency, async (server, imageIds, s3) => {
  // The services' own storage settings, pointed at this run's s3rver.
  const store = new ImageObjectStore(createS3Client({ ...new StorageConfig(), S3_ENDPOINT: s3.endpoint }), BUCKET);
  const sides = {
    raw: { run: rawConvert, processes: { [process.pid]: 'benchmark (raw sharp)' } },
    stored: { run: storedConvert(store), processes: { [process.pid]: 'benchmark (raw sharp, storage client, s3rver)' } },
    // The benchmark's process also runs the s3rver the API stores into.
    api: { run: async (job) => imageIds.add(await apiConvert(server, job)), processes: { [process.pid]: 'benchmark (client, s3rver)', [server.child.pid]: 'image-api' } },
  };
  const rows = [];
  const { profile, skipped } = await NativeProfile.start(server.child.pid);
  if (skipped) console.log(`no profile of image-api by library: ${skipped}`);
  const stopBeat = heartbeat('converting');
  for (const format of Object.keys(SETTINGS)) {
    // One on each side first: libvips loads its codecs, the API and the store their connections.
    for (const side of SIDES) await sides[side].run({ format, input: unique(images[0]) });
    const row = { format, shares: {} };
    const watches = Object.fromEntries(SIDES.map((side) => [side, new CpuWatch(sides[side].processes)]));
    for (const side of SIDES) row[`${side}Seconds`] = 0;
    for (let i = 0; i < ROUNDS; i++) {
      for (const side of SIDES) row[`${side}Seconds`] += await watches[side].during(() => secondsInFlight(round(images, format), CONCURRENCY, sides[side].run));
      console.log(`${format} round ${i + 1}/${ROUNDS}: ${SIDES.map((side) => `${side} ${row[`${side}Seconds`].toFixed(1)} s`).join(', ')} so far`);
    }
    for (const side of SIDES) row.shares[side] = watches[side].shares();
    console.log(`${format}, CPU in % of one core: ${SIDES.map((side) => `${side} ${formatShares(row.shares[side])}`).join('; ')}`);
    rows.push(row);
  }
  if (imageIds.size !== rows.length * (CONVERSIONS + 1)) throw new Error(`the API returned ${imageIds.size} distinct ids; repeats were served from storage`);
  stopBeat();
  const native = await profile?.stop();
  writeBenchResult({ name: 'image', title: 'Image conversions: API beside raw sharp', startedAt, ...report(images, rows, rssMiB(server.child.pid, 'VmHWM'), native) });
});
