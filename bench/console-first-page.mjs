#!/usr/bin/env node
// The console's first page with a cold cache: from navigation until the sign-in form can be
// used, in Debian's Chromium driven by Playwright, against a built console on a free port.
// Each run opens a new browser context (no cache, no cookies). Also reports the JavaScript the
// page loads, gzipped. Targets: usable in under 1 s on localhost, under 200 KB of gzipped JS.
// Usage: node bench/console-first-page.mjs [--runs N]
// Postgres and Redis as for `npm start`; CHROMIUM_PATH when Chromium is not /usr/bin/chromium.
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { ensureChromium } from '../tools/stack/chromium.mjs';
import { ensureInfra } from '../tools/stack/ensure-infra.mjs';
import { startBenchApp } from './bench-app.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' } } });
const RUNS = Number(values.runs);

const { postgres, redis } = await ensureInfra();
const executablePath = await ensureChromium();
console.log('building and starting the console…');
const app = await startBenchApp('console', { env: { DATABASE_URL: postgres.url, REDIS_URL: redis.url }, admin: ['account:pending'] });
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
      if (response.request().resourceType() === 'script') scripts.push(response.body().then((body) => gzipSync(body).length));
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
  console.log('');
  console.log('| measure | figure | target |');
  console.log('| --- | --- | --- |');
  console.log(`| first page usable, cold cache (p50) | ${p50.toFixed(0)} ms | < 1000 ms ${p50 < 1000 ? 'met' : 'MISSED'} |`);
  console.log(`| first page usable, cold cache (p90) | ${p90.toFixed(0)} ms | |`);
  console.log(`| JavaScript of the first page, gzipped | ${(scriptBytes / 1024).toFixed(1)} KB | < 200 KB ${scriptBytes < 200 * 1024 ? 'met' : 'MISSED'} |`);
} finally {
  await browser.close();
  app.child.kill('SIGTERM');
}
