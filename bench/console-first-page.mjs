#!/usr/bin/env node
// The console's first page with a cold cache: from navigation until the sign-in form can be
// used, in Debian's Chromium driven by Playwright, against a built console on a free port.
// Each run opens a new browser context (no cache, no cookies). Also reports the JavaScript the
// page loads as the network carried it (the console compresses its answers: brotli or gzip, as
// the browser accepts). Targets: usable in under 1 s on localhost, at most 150 KB of JavaScript
// transferred.
// Usage: node bench/console-first-page.mjs [--runs N] [--quick] (--quick: 3 runs)
// Postgres and Redis as for `npm start`; CHROMIUM_PATH when Chromium is not /usr/bin/chromium.
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { ensureChromium } from '../tools/stack/chromium.mjs';
import { ensureInfra } from '../tools/stack/ensure-infra.mjs';
import { startBenchApp } from './bench-app.mjs';
import { heartbeat, writeBenchResult } from './bench-report.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string' }, quick: { type: 'boolean', default: false } } });
const RUNS = Number(values.runs ?? (values.quick ? 3 : 10));
const startedAt = Date.now();

const { postgres, redis } = await ensureInfra();
const executablePath = await ensureChromium();
console.log('building and starting the console…');
const stopBeat = heartbeat('building and starting the console');
const app = await startBenchApp('console', { env: { DATABASE_URL: postgres.url, REDIS_URL: redis.url }, admin: ['account:pending'] });
stopBeat();
const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'] });

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

try {
  const times = [];
  let scriptBytes = 0;
  for (let run = 1; run <= RUNS; run++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const scripts = [];
    page.on('response', (response) => {
      // What came over the wire, compressed as the server sent it (the body's size in the response, without headers).
      if (response.request().resourceType() === 'script') scripts.push(response.request().sizes().then((sizes) => sizes.responseBodySize));
    });
    const started = performance.now();
    await page.goto(`${app.url}/console/sign-in`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor({ state: 'visible' });
    const elapsed = performance.now() - started;
    times.push(elapsed);
    scriptBytes = (await Promise.all(scripts)).reduce((sum, size) => sum + size, 0);
    console.log(`run ${run}/${RUNS}: usable after ${elapsed.toFixed(0)} ms`);
    await context.close();
  }
  times.sort((a, b) => a - b);
  const p50 = percentile(times, 50);
  const p90 = percentile(times, 90);
  writeBenchResult({
    name: 'console',
    title: 'Console first page, cold cache',
    startedAt,
    metrics: [
      { id: 'first-page-p50', label: 'first page usable, cold cache (p50)', value: p50, unit: 'ms', target: { op: '<=', value: 1000, label: 'under 1 s on localhost' }, note: `${RUNS} runs` },
      { id: 'first-page-p90', label: 'first page usable, cold cache (p90)', value: p90, unit: 'ms' },
      { id: 'first-page-js', label: 'JavaScript of the first page, transferred (compressed)', value: scriptBytes / 1024, unit: 'KiB', target: { op: '<=', value: 150, label: 'at most 150 KB' } },
    ],
  });
} finally {
  await browser.close();
  app.child.kill('SIGTERM');
}
