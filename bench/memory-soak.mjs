#!/usr/bin/env node
// Memory of all six services at rest and after sustained load, in one run: each built service
// starts on a free port (as in production: NODE_ENV=production, the Node flags and
// MALLOC_ARENA_MAX of the images), settles, and its resident memory is read; then both APIs are
// loaded for --minutes (translations, a few batches that batch-worker translates and
// webhook-dispatcher announces to a receiver here, image conversions whose other format
// image-worker makes), with a reading every ~30 s; then, after a settle period, the last
// reading. Only each service's Node process counts; Apertium's child processes (translate-api,
// batch-worker) are reported beside it.
// Targets: every service under 200 MB after start-up, and within 20 % of that after the load.
// Usage: node bench/memory-soak.mjs [--minutes N] [--quick]
// Postgres and Redis as for `npm start`; an s3rver of its own on a temporary directory.
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureInfra } from '../tools/stack/ensure-infra.mjs';
import { buildBenchApp, root, rssMiB, spawnBenchApp, startBenchS3 } from './bench-app.mjs';
import { heartbeat, writeBenchResult } from './bench-report.mjs';
import { apiConvert, BUCKET, dropVariantJobs, photoJpeg, unique } from './image-bench.mjs';

const { values } = parseArgs({ options: { minutes: { type: 'string', default: '10' }, quick: { type: 'boolean', default: false } } });
const QUICK = values.quick;
const LOAD_SECONDS = QUICK ? 45 : Number(values.minutes) * 60;
const SAMPLE_SECONDS = QUICK ? 15 : 30;
const START_SETTLE_SECONDS = QUICK ? 5 : 20;
const END_SETTLE_SECONDS = QUICK ? 10 : 60;
const IDLE_TARGET_MIB = 200 * 1e6 / 2 ** 20;
const SERVICES = ['translate-api', 'batch-worker', 'webhook-dispatcher', 'image-api', 'image-worker', 'console'];

const started = Date.now();
const mib = (value) => (value === undefined ? '?' : value.toFixed(0));
const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** Every descendant of `pid` (Apertium's pipelines), from /proc. */
function descendants(pid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1]);
      if (!children.has(parent)) children.set(parent, []);
      children.get(parent).push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  const found = [];
  const visit = (id) => (children.get(id) ?? []).forEach((child) => (found.push(child), visit(child)));
  visit(pid);
  return found;
}

function reading(services) {
  return Object.fromEntries(
    services.map(({ name, child }) => {
      const children = descendants(child.pid);
      const node = rssMiB(child.pid);
      // Anonymous memory is the heaps and buffers; file-backed is code and files mapped, such as
      // the codecs' pages of libvips once they have run, which Linux drops only under pressure.
      const anon = rssMiB(child.pid, 'RssAnon');
      const file = node === undefined || anon === undefined ? undefined : node - anon;
      return [name, { node, anon, file, children: children.reduce((sum, pid) => sum + (rssMiB(pid) ?? 0), 0), childCount: children.length }];
    }),
  );
}

function printReading(label, values) {
  console.log(`${label.padEnd(22)} ${SERVICES.map((name) => `${name} ${mib(values[name].node)}${values[name].childCount ? ` (+${values[name].childCount} children ${mib(values[name].children)})` : ''}`).join(', ')} MiB`);
}

const SENTENCES = ['The cat is sleeping on the red sofa.', 'We will meet at the station tomorrow morning.', 'The committee approved the new budget for the schools.', 'Please send the documents before Friday.'];

const { postgres, redis } = await ensureInfra();
const s3 = await startBenchS3(BUCKET);
const services = [];
// Production takes https webhook URLs only: the receiver has a certificate made here, which
// webhook-dispatcher is told to trust (NODE_EXTRA_CA_CERTS).
const certificates = mkdtempSync(path.join(tmpdir(), 'bench-soak-tls-'));
const [keyFile, certFile] = [path.join(certificates, 'key.pem'), path.join(certificates, 'cert.pem')];
execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile], { stdio: 'ignore' });
const receiver = createServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (request, response) => request.resume().on('end', () => response.writeHead(204).end()));
let webhooks = 0;
receiver.on('request', () => (webhooks += 1));
const imageIds = new Set();
try {
  console.log(`building ${SERVICES.join(', ')}…`);
  const stopBuild = heartbeat('building');
  for (const name of SERVICES) await buildBenchApp(name);
  stopBuild();
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const env = {
    NODE_ENV: 'production',
    DATABASE_URL: postgres.url,
    IMAGE_DATABASE_URL: postgres.url,
    REDIS_URL: redis.url,
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: BUCKET,
    TRANSLATION_ENGINE: 'apertium',
    RATE_LIMIT_PER_MINUTE: '1000000',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    // Production serves HTTPS only; the load says it came through a TLS-terminating proxy.
    TRUSTED_PROXIES: '127.0.0.1',
  };
  const viaProxy = { 'x-forwarded-proto': 'https' };
  const command = (app, args) => execFileSync(process.execPath, [`dist/apps/${app}/main.js`, ...args], { cwd: root, env: { ...process.env, LOG_LEVEL: 'warn', ...env } }).toString().trim().split('\n').at(-1);
  command('translate-api', ['migrate']);
  command('image-api', ['migrate']);
  const account = `soak-${randomUUID().slice(0, 8)}`;
  command('translate-api', ['admin', 'account:create', account]);
  command('translate-api', ['admin', 'account:limits', account, '--words', 'none', '--rate', 'none']);
  const key = command('translate-api', ['admin', 'key:create', '--account', account, '--manage']);
  const token = command('image-api', ['admin', 'token:create', '--plan', 'business']);

  for (const name of SERVICES) {
    const service = await spawnBenchApp(name, { env: name === 'webhook-dispatcher' ? { ...env, NODE_EXTRA_CA_CERTS: certFile } : env });
    services.push({ name, ...service });
    console.log(`${name} healthy at ${service.url}`);
  }
  const [translateApi, , , imageApi] = services;
  console.log(`settling ${START_SETTLE_SECONDS} s after start-up…`);
  await sleep(START_SETTLE_SECONDS);
  const idle = reading(services);
  printReading('after start-up', idle);

  const json = { ...viaProxy, authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const hook = await fetch(`${translateApi.url}/api/v1/webhook`, { method: 'PUT', headers: json, body: JSON.stringify({ url: `https://127.0.0.1:${receiver.address().port}/hook` }) });
  if (![200, 201].includes(hook.status)) throw new Error(`webhook registration answered ${hook.status}: ${await hook.text()}`);

  const counts = { translations: 0, batches: 0, conversions: 0, errors: 0 };
  const photo = await photoJpeg(1600, 1200);
  const until = Date.now() + LOAD_SECONDS * 1000;
  const loop = async (work) => {
    while (Date.now() < until) {
      await work().catch((error) => {
        counts.errors += 1;
        if (counts.errors <= 5) console.log(`  load error: ${error.message}`);
      });
    }
  };
  const translate = async () => {
    const texts = Array.from({ length: 20 }, (_, i) => SENTENCES[i % SENTENCES.length]);
    const response = await fetch(`${translateApi.url}/api/v1/translate`, { method: 'POST', headers: json, body: JSON.stringify({ source: 'en', target: 'es', texts }) });
    if (response.status !== 200) throw new Error(`translate answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
    counts.translations += 1;
  };
  const batch = async () => {
    const texts = Array.from({ length: 200 }, (_, i) => `${SENTENCES[i % SENTENCES.length]} (${i})`);
    const response = await fetch(`${translateApi.url}/api/v1/batches`, { method: 'POST', headers: json, body: JSON.stringify({ source: 'en', target: 'es', texts }) });
    if (response.status !== 202) throw new Error(`batch answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
    counts.batches += 1;
    await sleep(QUICK ? 10 : 45);
  };
  const convert = async () => {
    imageIds.add(await apiConvert({ url: imageApi.url, secret: token, headers: viaProxy }, { format: counts.conversions % 2 ? 'avif' : 'webp', input: unique(photo) }));
    counts.conversions += 1;
  };

  console.log(`load for ${LOAD_SECONDS} s: translations (2 in flight), a batch of 200 texts every ${QUICK ? 10 : 45} s, image conversions (2 in flight)`);
  const samples = [['after start-up', idle]];
  const sampler = setInterval(() => {
    const values = reading(services);
    const label = `load ${Math.round((Date.now() - (until - LOAD_SECONDS * 1000)) / 1000)} s`;
    samples.push([label, values]);
    printReading(label, values);
    console.log(`  ${counts.translations} translations, ${counts.batches} batches, ${counts.conversions} conversions, ${webhooks} webhooks received, ${counts.errors} errors`);
  }, SAMPLE_SECONDS * 1000);
  await Promise.all([loop(translate), loop(translate), loop(batch), loop(convert), loop(convert)]);
  clearInterval(sampler);
  const peak = Object.fromEntries(services.map(({ name, child }) => [name, rssMiB(child.pid, 'VmHWM')]));
  console.log(`load done: ${counts.translations} translations, ${counts.batches} batches, ${counts.conversions} conversions, ${counts.errors} errors; settling ${END_SETTLE_SECONDS} s…`);
  await sleep(END_SETTLE_SECONDS);
  const after = reading(services);
  samples.push(['after load and settling', after]);
  printReading('after load', after);
  const kinds = SERVICES.map((name) => [name, ...[idle, after].flatMap((values) => [mib(values[name].anon), mib(values[name].file)])]);
  console.log(`anonymous / file-backed MiB, after start-up → after load: ${kinds.map(([name, ...v]) => `${name} ${v[0]}/${v[1]} → ${v[2]}/${v[3]}`).join(', ')}`);

  const metrics = SERVICES.flatMap((name) => [
    { id: `${name}-idle-rss`, label: `${name} RSS after start-up`, value: idle[name].node, unit: 'MiB', target: { op: '<=', value: IDLE_TARGET_MIB, label: '200 MB' }, ...(idle[name].childCount ? { note: `its ${idle[name].childCount} Apertium processes: ${mib(idle[name].children)} MiB more` } : {}) },
    { id: `${name}-after-load-ratio`, label: `${name} RSS after load / after start-up`, value: after[name].node / idle[name].node, unit: '×', target: { op: '<=', value: 1.2, label: 'within 20 %' }, note: `${mib(after[name].node)} MiB after load, peak ${mib(peak[name])} MiB` },
  ]);
  metrics.push({ id: 'load-errors', label: 'failed requests during the load', value: counts.errors, unit: 'requests', target: { op: '<=', value: 0, label: 'none' } });
  writeBenchResult({
    name: 'soak',
    title: `Memory at rest and after ${Math.round(LOAD_SECONDS / 60)} min of load`,
    startedAt: started,
    metrics,
    tables: [
      {
        title: 'RSS per service (MiB, Node process; Apertium children in parentheses)',
        columns: ['moment', ...SERVICES],
        rows: samples.map(([label, values]) => [label, ...SERVICES.map((name) => (values[name].childCount ? `${mib(values[name].node)} (+${mib(values[name].children)})` : mib(values[name].node)))]),
      },
      { title: 'RSS by kind (MiB): anonymous (heaps, buffers) and file-backed (code, mapped files)', columns: ['service', 'anonymous after start-up', 'file-backed after start-up', 'anonymous after load', 'file-backed after load'], rows: kinds },
      { title: 'Load', columns: ['translations', 'batches', 'conversions', 'webhooks received', 'errors', 'peak RSS per service (MiB)'], rows: [[counts.translations, counts.batches, counts.conversions, webhooks, counts.errors, SERVICES.map((name) => `${name} ${mib(peak[name])}`).join(', ')]] },
    ],
  });
} finally {
  for (const { child } of services.reverse()) {
    if (child.exitCode !== null) continue;
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
  receiver.close();
  rmSync(certificates, { recursive: true, force: true });
  await dropVariantJobs(redis.url, imageIds);
  await s3.stop();
  await postgres.stop?.();
  await redis.stop?.();
}
