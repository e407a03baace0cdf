#!/usr/bin/env node
// `npm run e2e:compose`: the end-to-end suite against docker/compose.yml as it ships. Builds the
// base images when Docker Hub is out of reach (tools/containers/base-images.mjs) and the images
// of the Dockerfile, brings the stack up on free loopback ports under a project of its own, runs
// the suite (admin commands through `exec` into the containers, webhooks to this machine) and the
// compose-only tests (e2e/src/compose/), tears everything down (containers, network, volumes)
// whatever the outcome, and prints the time each phase took. Images stay: the next run reuses
// them and the build cache. Arguments are passed on to vitest (e.g. a file filter).
import path from 'node:path';
import { APPS } from '../tools/stack/apps.mjs';
import { ROOT, sleep, StackError, waitUntil } from '../tools/stack/common.mjs';
import { ensureChromium } from '../tools/stack/chromium.mjs';
import { freePorts, vitestBin } from '../tools/stack/own-infra.mjs';
import { baseImages } from '../tools/containers/base-images.mjs';
import { detectEngine } from '../tools/containers/engine.mjs';
import { buildServiceImages, IMAGE_PREFIX, IMAGE_TAG, megabytes } from '../tools/containers/service-images.mjs';
import { stackUrlVariables } from './stack-urls.mjs';
import { spawn } from 'node:child_process';

const PROJECT = process.env.E2E_COMPOSE_PROJECT || 'eu-platform-e2e';
const COMPOSE_FILE = path.join(ROOT, 'docker/compose.yml');
/** Every service answering /health, migrations and the bucket included, from `up`. */
const READY_TIMEOUT_MS = Number(process.env.E2E_STACK_TIMEOUT_MS || 180_000);
/** podman's network for the project, made here so that its gateway (the host) is known. */
const SUBNET_PREFIX = process.env.E2E_COMPOSE_SUBNET || '10.89.213';

const log = (message) => console.log(`[e2e:compose] ${message}`);
const timings = [];

async function phase(name, body) {
  const startedAt = Date.now();
  log(`${name}...`);
  try {
    return await body();
  } finally {
    timings.push([name, (Date.now() - startedAt) / 1000]);
    log(`${name}: ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  }
}

const engine = detectEngine();
const containerName = (service) => engine.containerName(PROJECT, service);

/** The compose variables of this run: base images, free host ports, test-scale timings. */
async function stackVariables(images) {
  const [minioPort, ...servicePorts] = await freePorts(1 + APPS.length);
  const ports = Object.fromEntries(APPS.map((app, i) => [app, servicePorts[i]]));
  return {
    ports,
    variables: {
      ...images,
      IMAGE_PREFIX,
      IMAGE_TAG,
      MINIO_HOST_PORT: String(minioPort),
      ...Object.fromEntries(APPS.map((app) => [`${app.toUpperCase().replace(/-/g, '_')}_HOST_PORT`, String(ports[app])])),
      // podman 4.3 has no host-gateway: the network made below has the host at .1.
      ...(engine.podman ? { HOST_GATEWAY: `${SUBNET_PREFIX}.1` } : {}),
      REVIEW_SANDBOX_DELAY_MS: '1000',
      WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1',
    },
  };
}

function compose(args, variables, options = {}) {
  return engine.compose(PROJECT, COMPOSE_FILE, args, { env: { ...engine.env, ...variables }, ...options });
}

/** The exit code of a one-shot service's container once it has stopped. */
async function exitCodeOf(service, timeoutMs) {
  await waitUntil(async () => (await engine.exec(['inspect', '--format', '{{.State.Status}}', containerName(service)], { allowFailure: true })).stdout.trim() === 'exited', {
    what: `${service} to finish`,
    timeoutMs,
    intervalMs: 500,
  });
  return Number((await engine.exec(['inspect', '--format', '{{.State.ExitCode}}', containerName(service)])).stdout.trim());
}

async function logsOf(service) {
  const { stdout, stderr } = await engine.exec(['logs', '--tail', '40', containerName(service)], { allowFailure: true });
  return `${stdout}${stderr}`.trim();
}

/** Runs a one-shot service (migrate, minio-init) until it succeeds; its dependency may still be starting. */
async function runOnce(service, variables, deadline) {
  for (;;) {
    await compose(['up', '-d', service], variables);
    const code = await exitCodeOf(service, deadline - Date.now());
    if (code === 0) return;
    if (Date.now() > deadline) throw new StackError(`${service} exited with ${code}:\n${await logsOf(service)}`);
    await sleep(2000);
  }
}

async function healthy(url) {
  const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5000) }).catch(() => null);
  return response?.status === 200;
}

/**
 * Brings the stack up in the order `depends_on` describes, waiting at each step itself:
 * podman-compose neither waits for conditions nor runs health checks.
 */
async function up(variables, urls) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  if (engine.podman) {
    await engine.exec(['network', 'create', '--subnet', `${SUBNET_PREFIX}.0/24`, '--label', `io.podman.compose.project=${PROJECT}`, '--label', `com.docker.compose.project=${PROJECT}`, `${PROJECT}_default`]);
  }
  await compose(['up', '-d', 'postgres', 'redis', 'minio'], variables);
  await runOnce('migrate', variables, deadline);
  await runOnce('minio-init', variables, deadline);
  await compose(['up', '-d', ...APPS], variables);
  await waitUntil(async () => (await Promise.all(Object.values(urls).map(healthy))).every(Boolean), {
    what: 'every service answering /health with 200',
    timeoutMs: Math.max(deadline - Date.now(), 10_000),
    intervalMs: 1000,
  }).catch(async (error) => {
    for (const app of APPS) console.error(`--- ${app}\n${await logsOf(app)}`);
    throw error;
  });
  // The account `npm start` makes, which the README's walkthroughs (and their test) use.
  await engine.exec(['exec', containerName('translate-api'), 'node', 'main.js', 'admin', 'account:create', 'sandbox']);
}

/** Removes the project's containers, volumes and network, and checks nothing of it is left. */
async function down(variables) {
  await compose(['down', '-v', '-t', '30'], variables, { allowFailure: true });
  const label = `label=com.docker.compose.project=${PROJECT}`;
  const left = async () => {
    const lists = await Promise.all([
      engine.exec(['ps', '-aq', '--filter', label], { allowFailure: true }),
      engine.exec(['volume', 'ls', '-q', '--filter', label], { allowFailure: true }),
      engine.exec(['network', 'ls', '-q', '--filter', label], { allowFailure: true }),
    ]);
    return lists.map((list) => list.stdout.trim().split('\n').filter(Boolean));
  };
  const [containers, volumes, networks] = await left();
  if (containers.length) await engine.exec(['rm', '-f', ...containers], { allowFailure: true });
  if (volumes.length) await engine.exec(['volume', 'rm', '-f', ...volumes], { allowFailure: true });
  if (networks.length) await engine.exec(['network', 'rm', ...networks], { allowFailure: true });
  const remaining = (await left()).flat();
  if (remaining.length) throw new StackError(`left behind by ${PROJECT}: ${remaining.join(', ')}`);
  log(`nothing of ${PROJECT} is left (containers, volumes, network)`);
}

function runVitest(urls, chromiumPath, { composeTests = false } = {}) {
  const admin = (service) => `${engine.name} exec -i ${containerName(service)} node main.js admin`;
  const env = {
    CHROMIUM_PATH: chromiumPath,
    ...engine.env,
    ...stackUrlVariables(urls),
    E2E_TRANSLATE_ADMIN: admin('translate-api'),
    E2E_IMAGE_ADMIN: admin('image-api'),
    E2E_CONSOLE_ADMIN: admin('console'),
    // The containers reach this machine by the compose file's name for it.
    E2E_WEBHOOK_HOST: 'host.docker.internal',
    E2E_PROMETHEUS: 'off',
    // The compose tests (e2e/src/compose/): what the containers' restart policies do.
    ...(composeTests ? { E2E_COMPOSE_TESTS: '1', E2E_COMPOSE_ENGINE: engine.name, E2E_COMPOSE_BATCH_WORKER: containerName('batch-worker') } : {}),
  };
  const child = spawn(process.execPath, [vitestBin(), 'run', '--config', 'e2e/vitest.config.ts', ...(composeTests ? [] : process.argv.slice(2))], { cwd: ROOT, env, stdio: 'inherit' });
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

function printTimings(built) {
  console.log('[e2e:compose] timings:');
  for (const [name, seconds] of timings) console.log(`  ${name.padEnd(24)} ${seconds.toFixed(1).padStart(7)} s`);
  console.log(`  ${'total'.padEnd(24)} ${timings.reduce((sum, [, seconds]) => sum + seconds, 0).toFixed(1).padStart(7)} s`);
  if (built?.length) {
    console.log('[e2e:compose] images:');
    for (const { image, bytes } of built) console.log(`  ${image.padEnd(40)} ${megabytes(bytes).padStart(8)}`);
  }
}

let variables = {};
let built;
let code = 1;
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: tearing the stack down`);
    down(variables).finally(() => process.exit(130));
  });
}
try {
  log(`${engine.name}, project ${PROJECT}`);
  const { source, images } = await phase('base images', () => baseImages(engine));
  log(`base images: ${source === 'local' ? 'built here from Debian and npm packages' : 'from Docker Hub'}`);
  built = await phase('service images', () => buildServiceImages(engine, images.NODE_IMAGE));
  const stack = await stackVariables(images);
  variables = stack.variables;
  const urls = Object.fromEntries(APPS.map((app) => [app, `http://127.0.0.1:${stack.ports[app]}`]));
  // A stack left by an interrupted run under the same name would hold the network and names.
  await down(variables);
  await phase('up', () => up(variables, urls));
  const chromiumPath = await ensureChromium();
  code = await phase('e2e suite', () => runVitest(urls, chromiumPath));
  // They kill containers: alone, after the suite, and skipped when the run was filtered.
  if (code === 0 && process.argv.length === 2) code = await phase('compose tests', () => runVitest(urls, chromiumPath, { composeTests: true }));
} catch (error) {
  console.error(`[e2e:compose] ${error instanceof StackError ? error.message : (error?.stack ?? error)}`);
} finally {
  if (!stopping) {
    stopping = true;
    await phase('down', () => down(variables)).catch((error) => {
      console.error(`[e2e:compose] ${error.message}`);
      code ||= 1;
    });
    printTimings(built);
    log(code === 0 ? 'passed' : 'failed');
    process.exit(code);
  }
}
