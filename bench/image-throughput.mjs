#!/usr/bin/env node
// Throughput of POST /convert beside raw sharp on the same images and settings, in one run.
// Raw: sharp in this process with the pipeline of libs/image-conversion (upright by EXIF, fit
// inside the bounds without enlarging, ICC profile kept, WebP effort 4 / AVIF effort 2).
// API: a built image-api on a free port with a real access token, storing into an s3rver started
// here on a temporary directory, so the stack's bucket is left alone.
// Every upload is unique (a random JPEG comment), so the API converts instead of serving a repeat
// from storage; the raw side gets the same bytes. Raw and API take turns in short rounds, so a
// machine that slows down or speeds up mid-run weighs on both alike.
// Usage: node bench/image-throughput.mjs [--rounds N] [--concurrency C]
// Postgres and Redis as for `npm start` (DATABASE_URL/REDIS_URL when given, else the local ones,
// started and the database created when needed).
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import Queue from 'bull';
import sharp from 'sharp';
import { ensureInfra } from '../tools/stack/ensure-infra.mjs';
import { rssMiB, startBenchApp, startBenchS3 } from './bench-app.mjs';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '6' }, concurrency: { type: 'string', default: String(availableParallelism()) } },
});
const ROUNDS = Number(values.rounds);
const CONCURRENCY = Number(values.concurrency);

// The service's defaults (conversion.config.ts, image-formats.ts); the API gets no quality field.
const MAX_PIXELS = 50_000_000;
const SETTINGS = { webp: { quality: 85, effort: 4 }, avif: { quality: 80, effort: 2 } };
const MAX_WIDTH = 800;
const SIZES = [
  [1600, 1200],
  [800, 600],
];
const BUCKET = 'images';
/** Conversions per format and round: every size with and without the bound, twice. */
const ROUND = SIZES.length * 2 * 2;
const CONVERSIONS = ROUNDS * ROUND;

/** A photo stand-in: colour gradients under deterministic noise, so encoders have real work. */
function photoJpeg(width, height) {
  const raw = Buffer.alloc(width * height * 3);
  let seed = width * 7919 + height;
  for (let i = 0; i < raw.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    const pixel = Math.floor(i / 3);
    const [x, y] = [pixel % width, Math.floor(pixel / width)];
    const base = [(x * 255) / width, (y * 255) / height, ((x + y) * 127) / (width + height) + 64][i % 3];
    raw[i] = Math.max(0, Math.min(255, base + (seed >>> 24) / 8 - 16));
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
}

/** The same image under new bytes: a JPEG comment segment (COM) right after the start marker. */
function unique(jpeg) {
  const text = Buffer.from(randomUUID());
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, text, jpeg.subarray(2)]);
}

/** One round of one format: both sizes, with and without the width bound, in turn. */
function round(images, format) {
  return Array.from({ length: ROUND }, (_, i) => ({
    format,
    input: unique(images[i % images.length]),
    maxWidth: Math.floor(i / images.length) % 2 ? MAX_WIDTH : undefined,
  }));
}

/** ImageConverter.convert, step for step. */
function rawConvert({ format, input, maxWidth }) {
  let pipeline = sharp(input, { animated: format === 'webp', limitInputPixels: MAX_PIXELS, failOn: 'truncated' }).autoOrient();
  if (maxWidth) pipeline = pipeline.resize({ width: maxWidth, fit: 'inside', withoutEnlargement: true });
  pipeline = pipeline.keepIccProfile();
  pipeline = format === 'avif' ? pipeline.avif(SETTINGS.avif) : pipeline.webp(SETTINGS.webp);
  return pipeline.toBuffer();
}

/** Seconds to run every job with CONCURRENCY of them in flight. */
async function timed(jobs, run) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < jobs.length) await run(jobs[next++]);
    }),
  );
  return (performance.now() - started) / 1000;
}

/** Posts one conversion; returns the stored image's id. */
async function apiConvert({ url, secret: token }, { format, input, maxWidth }) {
  const form = new FormData();
  form.append('file', new Blob([input]), 'photo.jpg');
  form.append('format', format);
  if (maxWidth) form.append('max_width', String(maxWidth));
  const response = await fetch(`${url}/convert`, { method: 'POST', headers: { 'x-access-token': token }, body: form });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`convert answered ${response.status}: ${body}`);
  if (response.headers.get('content-type') !== `image/${format}`) throw new Error(`convert answered ${response.headers.get('content-type')}`);
  return response.headers.get('x-cdn-image-id');
}

/**
 * The variant jobs this run queued name sources in its own S3, which is gone afterwards; they are
 * removed so that no worker on the same Redis picks them up.
 */
async function dropVariantJobs(redisUrl, imageIds) {
  const queue = new Queue('image-variants', redisUrl);
  const jobs = await queue.getJobs(['waiting', 'delayed', 'paused', 'failed']);
  const ours = jobs.filter((job) => job && imageIds.has(/^pending\/([^.]+)\./.exec(String(job.id))?.[1]));
  await Promise.all(ours.map((job) => job.remove()));
  await queue.close();
}

/** Conversions per second of each format and of both together, raw and through the API. */
function report(images, rows, rss) {
  const total = { format: 'both', rawSeconds: rows.reduce((s, r) => s + r.rawSeconds, 0), apiSeconds: rows.reduce((s, r) => s + r.apiSeconds, 0) };
  const described = SIZES.map(([width, height], i) => `${width}x${height} (${(images[i].length / 1024).toFixed(0)} KiB)`).join(' and ');
  console.log(`input: photo-like JPEGs ${described}, max_width ${MAX_WIDTH} and none, ${CONCURRENCY} in flight`);
  console.log(`       ${CONVERSIONS} conversions per format in ${ROUNDS} alternating rounds; every upload is unique (random JPEG comment), so none is served from storage`);
  console.log(`       webp quality ${SETTINGS.webp.quality} effort ${SETTINGS.webp.effort}, avif quality ${SETTINGS.avif.quality} effort ${SETTINGS.avif.effort}`);
  console.log('format  raw sharp     image API     API / raw');
  for (const { format, rawSeconds, apiSeconds } of [...rows, total]) {
    const conversions = format === 'both' ? CONVERSIONS * rows.length : CONVERSIONS;
    const [raw, through] = [conversions / rawSeconds, conversions / apiSeconds];
    console.log(`${format.padEnd(6)} ${raw.toFixed(2).padStart(7)} /s   ${through.toFixed(2).padStart(7)} /s   ${(through / raw).toFixed(2).padStart(7)}`);
  }
  if (rss) console.log(`image-api peak RSS: ${rss.toFixed(0)} MiB`);
}

// As ImageConverter does: each request brings a different image, so the operation cache only holds memory.
sharp.cache(false);
const images = await Promise.all(SIZES.map(([width, height]) => photoJpeg(width, height)));
const { postgres, redis } = await ensureInfra();
const s3 = await startBenchS3(BUCKET);
const imageIds = new Set();
let server;
try {
  server = await startBenchApp('image-api', {
    // One token sends every request; the API converts as many at once as raw sharp does.
    env: {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: BUCKET,
      CONCURRENT_REQUESTS_PER_TOKEN: String(CONCURRENCY),
      CONCURRENT_CONVERSIONS_PER_PROCESS: String(CONCURRENCY),
    },
    admin: ['token:create', '--plan', 'business'],
  });
  const rows = [];
  for (const format of Object.keys(SETTINGS)) {
    // One of each first: libvips loads its codecs and the API its connections on first use.
    const warmUp = { format, input: unique(images[0]) };
    await rawConvert(warmUp);
    imageIds.add(await apiConvert(server, warmUp));
    const row = { format, rawSeconds: 0, apiSeconds: 0 };
    for (let i = 0; i < ROUNDS; i++) {
      row.rawSeconds += await timed(round(images, format), rawConvert);
      row.apiSeconds += await timed(round(images, format), async (job) => imageIds.add(await apiConvert(server, job)));
    }
    rows.push(row);
  }
  if (imageIds.size !== rows.length * (CONVERSIONS + 1)) throw new Error(`the API returned ${imageIds.size} distinct ids; repeats were served from storage`);
  report(images, rows, rssMiB(server.child.pid, 'VmHWM'));
} finally {
  if (server) {
    server.child.kill('SIGTERM');
    await once(server.child, 'exit');
  }
  await dropVariantJobs(redis.url, imageIds);
  await s3.stop();
  await postgres.stop?.();
  await redis.stop?.();
}
