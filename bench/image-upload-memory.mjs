#!/usr/bin/env node
// Memory of image-api under large uploads. First 8 photo-like 12-megapixel JPEGs converted to
// WebP at once (the target: image-api's resident memory stays under 400 MB), then 3 batches of
// 10 × 24 MB at once, sent three ways — an unknown access_token field before the files, the same
// field after the files, and a valid X-Access-Token (the files are not images, so every one is
// refused with 415 from its header). Prints image-api's resident memory before, its peak after each phase, and how long the
// answers took. Uploads are refused before they are read, or streamed to temp files, so the
// peak should stay near the idle figure instead of growing by the bodies' size. Memory is read
// from /proc every 50 ms, so each phase gets its own peak.
// Usage: node bench/image-upload-memory.mjs [--quick]
// Postgres and Redis as for `npm start` (DATABASE_URL/REDIS_URL when given, else the local ones).
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { peakRssDuring, rssMiB } from './bench-app.mjs';
import { heartbeat, writeBenchResult } from './bench-report.mjs';
import { apiConvert, photoJpeg, unique, withImageApi } from './image-bench.mjs';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
/** Rounds of 8 photos at once. */
const PHOTO_ROUNDS = values.quick ? 1 : 4;
const PHOTOS_AT_ONCE = 8;
const PHOTO_SIZE = [4000, 3000];
const RSS_TARGET_MIB = 400e6 / 2 ** 20;
const FILES = 10;
const FILE_BYTES = 24 * 1024 * 1024;
const AT_ONCE = 3;

const file = new Blob([randomBytes(FILE_BYTES)]);

function batchForm(fieldsFirst, fieldsLast) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fieldsFirst)) form.append(name, value);
  for (let i = 0; i < FILES; i++) form.append('files', file, `upload-${i}.jpg`);
  for (const [name, value] of Object.entries(fieldsLast)) form.append(name, value);
  return form;
}

/** Sends AT_ONCE batches at once; the statuses and the seconds until the last answer. */
async function phase(url, { headers = {}, fieldsFirst = {}, fieldsLast = {} }) {
  const started = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      // A server that answers before the body is sent may close the connection under it.
      const response = await fetch(`${url}/convert/batch`, { method: 'POST', headers, body: batchForm(fieldsFirst, fieldsLast) }).catch((error) => ({ status: error.cause?.code ?? 'error' }));
      await response.arrayBuffer?.();
      return response.status;
    }),
  );
  return { statuses, seconds: (performance.now() - started) / 1000 };
}

const startedAt = Date.now();
const photo = await photoJpeg(...PHOTO_SIZE);
await withImageApi({ CONCURRENT_REQUESTS_PER_TOKEN: String(PHOTOS_AT_ONCE) }, async (server, imageIds) => {
  const pid = server.child.pid;
  const mib = (value) => `${value?.toFixed(0) ?? '?'} MiB`;
  const idle = rssMiB(pid);
  console.log(`image-api idle: ${mib(idle)}`);
  const stopBeat = heartbeat('uploading');
  const photoDescription = `${PHOTOS_AT_ONCE} × ${PHOTO_SIZE.join('×')} JPEG (${(photo.length / 2 ** 20).toFixed(1)} MiB) to WebP at once`;
  const photos = await peakRssDuring(pid, async () => {
    const started = performance.now();
    for (let round = 1; round <= PHOTO_ROUNDS; round++) {
      const ids = await Promise.all(Array.from({ length: PHOTOS_AT_ONCE }, () => apiConvert(server, { format: 'webp', input: unique(photo) })));
      ids.forEach((id) => imageIds.add(id));
      console.log(`${photoDescription}, round ${round}/${PHOTO_ROUNDS}: ${((performance.now() - started) / 1000).toFixed(1)} s so far, RSS now ${mib(rssMiB(pid))}`);
    }
    return (performance.now() - started) / 1000;
  });
  console.log(`${photoDescription}: peak ${mib(photos.peak)}`);
  console.log(`${AT_ONCE} batches of ${FILES} × ${FILE_BYTES / 1024 / 1024} MB at once`);
  const rows = [['idle after start-up', '', '', Math.round(idle)], [`${photoDescription}, ${PHOTO_ROUNDS} round(s)`, '200', photos.result.toFixed(1), Math.round(photos.peak)]];
  const phases = [
    ['unknown access_token field before the files', { fieldsFirst: { access_token: 'img_unknown' } }],
    ['unknown access_token field after the files', { fieldsLast: { access_token: 'img_unknown' } }],
    ['valid X-Access-Token, files read whole', { headers: { 'x-access-token': server.secret } }],
  ];
  let batchPeak = 0;
  for (const [name, options] of phases) {
    const { result, peak } = await peakRssDuring(pid, () => phase(server.url, options));
    batchPeak = Math.max(batchPeak, peak);
    rows.push([`batches: ${name}`, result.statuses.join(', '), result.seconds.toFixed(1), Math.round(peak)]);
    console.log(`${name.padEnd(46)} answers ${result.statuses.join(', ')} in ${result.seconds.toFixed(1)} s; peak ${mib(peak)}`);
  }
  stopBeat();
  writeBenchResult({
    name: 'image-uploads',
    title: 'image-api memory under large uploads',
    startedAt,
    metrics: [
      { id: 'idle-rss', label: 'image-api RSS after start-up', value: idle, unit: 'MiB' },
      { id: 'photos-peak-rss', label: `image-api peak RSS, ${PHOTOS_AT_ONCE} concurrent 12 MP uploads`, value: photos.peak, unit: 'MiB', target: { op: '<=', value: RSS_TARGET_MIB, label: '400 MB' }, note: `${PHOTO_ROUNDS} round(s) of ${photoDescription}` },
      { id: 'batches-peak-rss', label: `image-api peak RSS, ${AT_ONCE} batches of ${FILES} × 24 MB`, value: batchPeak, unit: 'MiB', target: { op: '<=', value: RSS_TARGET_MIB, label: '400 MB' } },
    ],
    tables: [{ title: 'Peak RSS per phase', columns: ['phase', 'answers', 'seconds', 'peak RSS (MiB)'], rows }],
  });
});
