#!/usr/bin/env node
// How the cost of one conversion grows with the image: photo-like JPEGs of 0.5, 2, 12 and 48
// megapixels, each converted alone (one at a time) to WebP and to AVIF, by raw sharp and through
// POST /convert of a built image-api (store included). Time is the median of the repeats; memory
// is the highest resident memory above the process's own at rest: for raw sharp a fresh child
// process per size and format, for the API the service itself, read every 50 ms. Linear growth
// shows as time and memory per megapixel that stay level from 2 MP up (the slope of log time over
// log size near 1); 0.5 MP carries the fixed cost of a request.
// Usage: node bench/image-cost-growth.mjs [--quick]
// (--quick: WebP only, up to 12 MP, one repeat.) Postgres and Redis as for `npm start`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { peakRssDuring, rssMiB } from './bench-app.mjs';
import { heartbeat, writeBenchResult } from './bench-report.mjs';
import { apiConvert, photoJpeg, rawConvert, unique, withImageApi } from './image-bench.mjs';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, 'raw-child': { type: 'string' }, format: { type: 'string' }, repeats: { type: 'string' } } });

const median = (numbers) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)];

/**
 * The raw side in a child process of its own, so its peak memory is this conversion's alone:
 * prints `{ seconds, restMiB, peakMiB }`.
 */
if (values['raw-child']) {
  sharp.cache(false);
  const input = readFileSync(values['raw-child']);
  // sharp and its codecs loaded, one tiny conversion done: the process at rest.
  await rawConvert({ format: values.format, input: await sharp({ create: { width: 8, height: 8, channels: 3, background: 'white' } }).jpeg().toBuffer() });
  const restMiB = rssMiB(process.pid);
  const seconds = [];
  for (let i = 0; i < Number(values.repeats); i++) {
    const started = performance.now();
    await rawConvert({ format: values.format, input: unique(input) });
    seconds.push((performance.now() - started) / 1000);
  }
  console.log(JSON.stringify({ seconds: median(seconds), restMiB, peakMiB: rssMiB(process.pid, 'VmHWM') }));
  process.exit(0);
}

const QUICK = values.quick;
const MEGAPIXELS = QUICK ? [0.5, 2, 12] : [0.5, 2, 12, 48];
const FORMATS = QUICK ? ['webp'] : ['webp', 'avif'];
const REPEATS = QUICK ? 1 : 3;
/** A 4:3 image of about `megapixels`. */
const dimensions = (megapixels) => {
  const width = Math.round(Math.sqrt((megapixels * 1e6 * 4) / 3) / 8) * 8;
  return [width, Math.round((width * 3) / 4)];
};

const startedAt = Date.now();
const directory = mkdtempSync(path.join(tmpdir(), 'bench-growth-'));
const stopBeat = heartbeat('measuring');
const images = [];
for (const megapixels of MEGAPIXELS) {
  const [width, height] = dimensions(megapixels);
  const file = path.join(directory, `${megapixels}.jpg`);
  writeFileSync(file, await photoJpeg(width, height));
  images.push({ megapixels, width, height, file });
  console.log(`made a ${width}×${height} JPEG (${megapixels} MP)`);
}

const rows = [];
const row = (megapixels, pathName, seconds, memoryMiB) => {
  rows.push([megapixels, pathName, Number(seconds.toFixed(3)), Number(((seconds * 1000) / megapixels).toFixed(1)), Math.round(memoryMiB), Number((memoryMiB / megapixels).toFixed(1))]);
  console.log(`${String(megapixels).padStart(4)} MP ${pathName.padEnd(16)} ${seconds.toFixed(3)} s, ${memoryMiB.toFixed(0)} MiB above rest`);
};

for (const { megapixels, file } of images) {
  for (const format of FORMATS) {
    const output = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--raw-child', file, '--format', format, '--repeats', String(REPEATS)]).toString();
    const { seconds, restMiB, peakMiB } = JSON.parse(output.trim().split('\n').at(-1));
    row(megapixels, `raw sharp ${format}`, seconds, peakMiB - restMiB);
  }
}

try {
  await withImageApi({}, async (server, imageIds) => {
    const pid = server.child.pid;
    // Codecs and connections are loaded on first use, which is not the image's cost.
    for (const format of FORMATS) imageIds.add(await apiConvert(server, { format, input: unique(readFileSync(images[0].file)) }));
    for (const { megapixels, file } of images) {
      const input = readFileSync(file);
      for (const format of FORMATS) {
        const rest = rssMiB(pid);
        const { result: seconds, peak } = await peakRssDuring(pid, async () => {
          const times = [];
          for (let i = 0; i < REPEATS; i++) {
            const started = performance.now();
            imageIds.add(await apiConvert(server, { format, input: unique(input) }));
            times.push((performance.now() - started) / 1000);
          }
          return median(times);
        });
        row(megapixels, `image API ${format}`, seconds, peak - rest);
      }
    }
  });
} finally {
  rmSync(directory, { recursive: true, force: true });
}
stopBeat();

/** log(time) over log(size) from 2 MP to the largest: 1 is linear. */
const slope = (pathName, column) => {
  const ofPath = rows.filter((r) => r[1] === pathName);
  const [from, to] = [ofPath.find((r) => r[0] === 2), ofPath.at(-1)];
  return Math.log(to[column] / from[column]) / Math.log(to[0] / from[0]);
};
const paths = [...new Set(rows.map((r) => r[1]))];
writeBenchResult({
  name: 'image-growth',
  title: 'Image conversion cost against image size',
  startedAt,
  metrics: paths.flatMap((pathName) => [
    { id: `${pathName.replace(/ /g, '-')}-time-slope`, label: `${pathName}: growth of time with size (log-log slope, 2 MP to ${MEGAPIXELS.at(-1)} MP)`, value: slope(pathName, 2), unit: '', target: { op: '<=', value: 1.15, label: 'linear' } },
    { id: `${pathName.replace(/ /g, '-')}-memory-slope`, label: `${pathName}: growth of memory with size (log-log slope, 2 MP to ${MEGAPIXELS.at(-1)} MP)`, value: slope(pathName, 4), unit: '', target: { op: '<=', value: 1.15, label: 'linear' } },
  ]),
  tables: [{ title: 'Cost growth: image conversion', columns: ['megapixels', 'path', 'time (s)', 'ms per megapixel', 'memory above rest (MiB)', 'MiB per megapixel'], rows }],
});
