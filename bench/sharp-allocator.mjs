#!/usr/bin/env node
// What glibc's allocator settings cost raw sharp and what they give back: for each setting, a
// child process converts a 2 MP photo to WebP and AVIF one at a time (time and CPU per
// conversion, one libvips thread as the services run it), then four pairs of 12 MP conversions
// two at a time, and reports its resident memory 2 s after the last one. The images' setting is
// the one in docker/Dockerfile; the others are what was weighed against it, jemalloc among them.
// Usage: node bench/sharp-allocator.mjs [--quick]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { ensureDebianPackage, productionRuntime } from './bench-app.mjs';
import { heartbeat, writeBenchResult } from './bench-report.mjs';
import { photoJpeg, rawConvert, unique } from './image-bench.mjs';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, child: { type: 'boolean', default: false } } });
const CONVERSIONS = values.quick ? 8 : 20;

if (values.child) {
  sharp.cache(false);
  sharp.concurrency(1);
  const photo = await photoJpeg(1600, 1200);
  const perFormat = {};
  for (const format of ['webp', 'avif']) {
    await rawConvert({ format, input: unique(photo) });
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < CONVERSIONS; i++) await rawConvert({ format, input: unique(photo) });
    const used = process.cpuUsage(cpu);
    perFormat[format] = { ms: (performance.now() - started) / CONVERSIONS, cpuMs: (used.user + used.system) / 1000 / CONVERSIONS, systemMs: used.system / 1000 / CONVERSIONS };
  }
  const large = await photoJpeg(4000, 3000);
  for (let i = 0; i < 4; i++) await Promise.all(['webp', 'avif'].map((format) => rawConvert({ format, input: unique(large) })));
  await new Promise((resolve) => setTimeout(resolve, 2000));
  console.log(JSON.stringify({ ...perFormat, rssMiB: process.memoryUsage().rss / 1048576 }));
  process.exit(0);
}

const JEMALLOC = '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2';
const startedAt = Date.now();
const images = productionRuntime().env;
const SETTINGS = [
  ['glibc defaults', {}],
  ['MALLOC_ARENA_MAX=2', { MALLOC_ARENA_MAX: '2' }],
  [`the images' (${Object.entries(images).map(([name, value]) => `${name}=${value}`).join(' ')})`, images],
  ['MALLOC_ARENA_MAX=2, mmap threshold 4 MiB, trim threshold 32 MiB', { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '4194304', MALLOC_TRIM_THRESHOLD_: '33554432' }],
];
// sharp's documentation recommends jemalloc on glibc systems: Debian's, preloaded, returning
// freed pages after a second from a background thread instead of the default ten.
const { missing } = ensureDebianPackage('libjemalloc2', JEMALLOC);
if (missing) console.log(`jemalloc left out: ${missing}`);
else SETTINGS.push(['jemalloc, pages returned after 1 s', { LD_PRELOAD: JEMALLOC, MALLOC_CONF: 'background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0' }]);
const rows = [];
for (const [label, env] of SETTINGS) {
  const stop = heartbeat(label);
  const self = fileURLToPath(import.meta.url);
  const out = execFileSync(process.execPath, [self, '--child', ...(values.quick ? ['--quick'] : [])], { env: { ...process.env, ...env } }).toString();
  stop();
  const result = JSON.parse(out.trim().split('\n').at(-1));
  console.log(`${label}: WebP ${result.webp.ms.toFixed(0)} ms, AVIF ${result.avif.ms.toFixed(0)} ms (of which kernel ${result.avif.systemMs.toFixed(0)} ms), RSS after the 12 MP pairs ${result.rssMiB.toFixed(0)} MiB`);
  rows.push([label, Number(result.webp.ms.toFixed(0)), Number(result.avif.ms.toFixed(0)), Number(result.webp.systemMs.toFixed(0)), Number(result.avif.systemMs.toFixed(0)), Number(result.rssMiB.toFixed(0))]);
}
const [defaults, , shipped] = rows;
writeBenchResult({
  name: 'sharp-allocator',
  title: "Raw sharp under glibc's allocator settings: time per 2 MP conversion and memory after 12 MP pairs",
  startedAt,
  metrics: [
    { id: 'webp-cost', label: "WebP time, the images' setting / glibc defaults", value: shipped[1] / defaults[1], unit: '×' },
    { id: 'avif-cost', label: "AVIF time, the images' setting / glibc defaults", value: shipped[2] / defaults[2], unit: '×' },
    { id: 'rss-gain', label: "RSS after the 12 MP pairs, the images' setting / glibc defaults", value: shipped[5] / defaults[5], unit: '×' },
  ],
  tables: [{ title: 'Time per conversion (ms) and RSS after 12 MP pairs (MiB), by allocator setting', columns: ['setting', 'WebP ms', 'AVIF ms', 'WebP kernel ms', 'AVIF kernel ms', 'RSS MiB'], rows }],
});
