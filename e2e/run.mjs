#!/usr/bin/env node
// `npm run e2e`: starts the native stack (tools/stack/start.mjs, what `npm start` runs) on free
// ports with its own database, Redis and S3 server, and a Prometheus of its own scraping it with
// the platform's rules on the run's time scale; runs the end-to-end suite against it and stops
// it again, whatever the outcome. Exits with the suite's code. Arguments are passed on to vitest
// (e.g. a file filter).
import { createWriteStream, writeFileSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { prometheusRulesFile } from '../deploy/monitoring/generate.ts';
import { APPS as SERVICES, portVariable } from '../tools/stack/apps.mjs';
import { ROOT, StackError as RunError } from '../tools/stack/common.mjs';
import { freePorts, ProcessSet, runOnOwnStack, startRedisServer, startS3Server, vitestBin, waitFor } from '../tools/stack/own-infra.mjs';
import { ensureChromium } from '../tools/stack/chromium.mjs';
import { DEFAULT_DATABASE_URL } from '../tools/stack/postgres.mjs';
import { ensurePrometheus, prometheusArguments, prometheusReady } from '../tools/stack/prometheus.mjs';
import { stackUrlVariables } from './stack-urls.mjs';

/** Building, migrating and starting five services; the first run after a clean checkout is the slowest. */
const STACK_TIMEOUT_MS = Number(process.env.E2E_STACK_TIMEOUT_MS || 180_000);
/** start.mjs gives each service 25 s to stop, and the services stop in parallel. */
const STACK_STOP_TIMEOUT_MS = 40_000;
/** The last thing start.mjs prints once setup, including its own admin commands, is done. */
const READY_LINE = 'Press Ctrl-C to stop everything.';

/** E2E_PROMETHEUS=off runs the suite without Prometheus: its tests are skipped, and say so. */
const PROMETHEUS_OPT_OUT = 'E2E_PROMETHEUS=off';
const withPrometheus = process.env.E2E_PROMETHEUS !== 'off';
/**
 * The alert rules' `for` on the run's time scale: 15 minutes become 5 s. Only `for` changes
 * (deploy/monitoring/generate.ts); the expressions and their thresholds are production's.
 */
const ALERT_FOR_DIVISOR = 180;
/** Scrapes and rule evaluations this often: an alert follows the stack within a few seconds. */
const PROMETHEUS_INTERVAL = '1s';

const log = (message) => console.log(`[e2e] ${message}`);

/** The stack's own database on the server DATABASE_URL names (start.mjs creates it when missing). */
function e2eDatabaseUrl() {
  if (process.env.E2E_DATABASE_URL) return process.env.E2E_DATABASE_URL;
  const url = new URL(process.env.DATABASE_URL || DEFAULT_DATABASE_URL);
  url.pathname = '/platform_e2e';
  return url.toString();
}

const processes = new ProcessSet();

/**
 * A Redis of its own (no persistence), so the stack's queues never meet those of a development
 * stack or of the tests on the shared server; E2E_REDIS_URL names one to use instead.
 */
async function startRedis(port, dir) {
  if (process.env.E2E_REDIS_URL) return process.env.E2E_REDIS_URL;
  const redis = await startRedisServer(processes, port, dir).catch((error) => {
    throw new RunError(`${error.message}; is redis-server installed? Otherwise set E2E_REDIS_URL to a Redis database nothing else uses`);
  });
  return redis.url;
}

async function healthy(url) {
  const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5000) }).catch(() => null);
  return response?.status === 200;
}

async function startStack(workDir, output) {
  const [redisPort, s3Port, controlPort, ...servicePorts] = await freePorts(3 + SERVICES.length);
  const urls = Object.fromEntries(SERVICES.map((service, i) => [service, `http://127.0.0.1:${servicePorts[i]}`]));
  const infra = {
    DATABASE_URL: e2eDatabaseUrl(),
    REDIS_URL: await startRedis(redisPort, workDir),
    S3_ENDPOINT: (await startS3Server(processes, s3Port, path.join(workDir, 's3'))).endpoint,
    S3_BUCKET: 'images',
  };
  const env = {
    ...process.env,
    ...infra,
    CDN_URL: `${infra.S3_ENDPOINT}/images`,
    NODE_ENV: 'development',
    // Not the developer's .data: its own sandbox key, matching its own database.
    STACK_DATA_DIR: workDir,
    // Sandbox review and webhook retries on a test's time scale.
    REVIEW_SANDBOX_DELAY_MS: process.env.REVIEW_SANDBOX_DELAY_MS || '1000',
    WEBHOOK_RETRY_SCHEDULE: process.env.WEBHOOK_RETRY_SCHEDULE || '1,1,1,1,1',
    // No catalog memory: its first build would take the machine's cores for minutes while the suite runs.
    STACK_CATALOG: process.env.STACK_CATALOG || 'off',
    // An endpoint's circuit opened by a test's receiver going down is probed again soon.
    WEBHOOK_CIRCUIT_COOLDOWN_MS: process.env.WEBHOOK_CIRCUIT_COOLDOWN_MS || '15000',
    ...Object.fromEntries(SERVICES.map((service, i) => [portVariable(service), String(servicePorts[i])])),
    // The run starts a Prometheus of its own, on its time scale; tests stop services through the control interface.
    STACK_PROMETHEUS: 'off',
    STACK_CONTROL_PORT: String(controlPort),
  };
  delete env.HOST;
  log(`starting the stack on ports ${servicePorts.join(', ')} (output in ${output.path})`);
  const startedAt = Date.now();
  const stack = processes.start('stack', process.execPath, [path.join(ROOT, 'tools/stack/start.mjs')], { env, output: 'pipe' });
  for (const stream of [stack.child.stdout, stack.child.stderr]) stream.pipe(output, { end: false });
  let ready = false;
  readline.createInterface({ input: stack.child.stdout }).on('line', (line) => (ready ||= line.includes(READY_LINE)));
  await waitFor(
    'every service answering /health with 200',
    async () => ready && (await Promise.all(Object.values(urls).map(healthy))).every(Boolean),
    stack,
    STACK_TIMEOUT_MS,
  );
  log(`stack ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  return { urls, infra, controlUrl: `http://127.0.0.1:${controlPort}` };
}

/**
 * Debian's Prometheus scraping every service, with a copy of deploy/monitoring's rules whose
 * `for` are divided by ALERT_FOR_DIVISOR; its data in the work directory. Resolves to its URL.
 */
async function startPrometheus(workDir, urls, output) {
  const [port] = await freePorts(1);
  const dir = path.join(workDir, 'prometheus');
  const rulesFile = path.join(workDir, 'prometheus-rules.yaml');
  writeFileSync(rulesFile, prometheusRulesFile({ forDivisor: ALERT_FOR_DIVISOR }));
  const startedAt = Date.now();
  const prometheus = processes.start('prometheus', 'prometheus', prometheusArguments({ dir, port, targets: urls, rulesFile, interval: PROMETHEUS_INTERVAL }), { output: 'pipe' });
  for (const stream of [prometheus.child.stdout, prometheus.child.stderr]) stream.pipe(output, { end: false });
  const url = `http://127.0.0.1:${port}`;
  await waitFor('prometheus ready', () => prometheusReady(url), prometheus, 60_000);
  log(`prometheus ready on ${url} in ${((Date.now() - startedAt) / 1000).toFixed(1)} s (rules' for divided by ${ALERT_FOR_DIVISOR}, every ${PROMETHEUS_INTERVAL})`);
  return url;
}

function runSuite({ urls, infra, controlUrl, prometheusUrl }, chromiumPath) {
  const env = {
    CHROMIUM_PATH: chromiumPath,
    ...process.env,
    // Admin commands work on the stack's database, which holds the image schema too.
    ...infra,
    IMAGE_DATABASE_URL: infra.DATABASE_URL,
    ...stackUrlVariables(urls),
    E2E_STACK_CONTROL_URL: controlUrl,
    ...(prometheusUrl ? { E2E_PROMETHEUS_URL: prometheusUrl } : { E2E_PROMETHEUS: 'off' }),
    // The stack has just built and migrated the apps: their bundles' admin command is all it takes.
    E2E_TRANSLATE_ADMIN: process.env.E2E_TRANSLATE_ADMIN || 'node dist/apps/translate-api/main.js admin',
    E2E_IMAGE_ADMIN: process.env.E2E_IMAGE_ADMIN || 'node dist/apps/image-api/main.js admin',
    E2E_CONSOLE_ADMIN: process.env.E2E_CONSOLE_ADMIN || 'node dist/apps/console/main.js admin',
  };
  const suite = processes.start('vitest', process.execPath, [vitestBin(), 'run', '--config', 'e2e/vitest.config.ts', ...process.argv.slice(2)], { env, output: 'inherit' });
  return suite.exit.then((code) => (typeof code === 'number' ? code : 1));
}

await runOnOwnStack('e2e', processes, {
  stopTimeoutFor: (entry) => (entry.name === 'stack' ? STACK_STOP_TIMEOUT_MS : 10_000),
  run: async (workDir, logFile) => {
    const chromiumPath = await ensureChromium();
    if (withPrometheus) await ensurePrometheus(PROMETHEUS_OPT_OUT);
    else log(`${PROMETHEUS_OPT_OUT}: no Prometheus for this run, and its tests are skipped`);
    const output = createWriteStream(logFile);
    await new Promise((resolve) => output.once('open', resolve));
    const stack = await startStack(workDir, output);
    const prometheusUrl = withPrometheus ? await startPrometheus(workDir, stack.urls, output) : null;
    return runSuite({ ...stack, prometheusUrl }, chromiumPath);
  },
});
