#!/usr/bin/env node
// `npm start`: the whole platform on one machine. Ensures PostgreSQL, Redis and S3 (s3rver),
// builds the apps, migrates, prepares a sandbox key, then runs every service with its output
// prefixed, Prometheus scraping them, until Ctrl-C/SIGTERM, and builds the catalog memory in the
// background. `npm start -- translate-api image-api` runs only those services. Everything this
// run started is stopped again on exit; what was already running is left alone.
import { spawn } from 'node:child_process';
import { ensureApertium } from './apertium.mjs';
import { buildCatalog, catalogWanted, ensureCatalogPackages } from './catalog.mjs';
import { APPS, buildApps, DEFAULT_PORTS, FETCH_BAD_PORTS, migratingApps, portVariable } from './apps.mjs';
import { canConnect, displayUrl, ensureDataDir, interruptRunningCommands, log, paint, reachableHost, StackError, waitUntil, warn } from './common.mjs';
import { serveControl, serviceRoutes } from './control-server.mjs';
import { ensurePostgres } from './postgres.mjs';
import { DEFAULT_PROMETHEUS_PORT, ensurePrometheus, prometheusArguments, prometheusReady, prometheusWanted } from './prometheus.mjs';
import { ensureRedis } from './redis.mjs';
import { ensureS3 } from './s3.mjs';
import { ensureSandboxKey } from './sandbox-key.mjs';
import { relayLines, runAppCommand, startService, stopChild, superviseService, waitHealthy } from './services.mjs';

/** The services' own bound for a graceful exit (SPEC: within 25 s of SIGTERM). */
const SHUTDOWN_TIMEOUT_MS = 25_000;

const selected = process.argv.slice(2);
const unknown = selected.filter((name) => !APPS.includes(name));
if (unknown.length) {
  console.error(`Unknown service ${unknown.join(', ')}; services: ${APPS.join(', ')}`);
  process.exit(2);
}
const apps = selected.length ? selected : APPS;
const withPrometheus = prometheusWanted();
const PROMETHEUS_OPT_OUT = 'STACK_PROMETHEUS=off';

/** Stop functions of what this run started, in start order. */
const startedHere = [];
const services = [];
/** Each service's levers for a test's outage, by name (superviseService). */
const supervisors = new Map();
let stopRequested = false;
let stopping = null;
let setup = null;
/** Cuts setup's waits short once a stop is requested. */
const setupAbort = new AbortController();

function stopStack(code) {
  stopRequested = true;
  stopping ??= (async () => {
    setupAbort.abort();
    interruptRunningCommands();
    // Let the current setup step finish, so whatever it started is known and stopped too.
    await setup?.catch(() => {});
    await Promise.all(services.map((service) => stopChild(service.child, service.name, SHUTDOWN_TIMEOUT_MS)));
    for (const stop of startedHere.reverse()) {
      await stop().catch((error) => warn(`while stopping: ${error.message}`));
    }
    log(code === 0 ? 'stopped' : paint('red', 'stopped after a failure'));
    process.exit(code);
  })();
  return stopping;
}

// With `npm start | tee log`, Ctrl-C ends the reader first: losing the terminal must not cut the
// shutdown short and leave services running.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    // A terminal's Ctrl-C arrives twice under npm: from the terminal and forwarded by npm.
    if (stopping) return;
    log(`${signal}: stopping everything`);
    stopStack(0);
  });
}

// Under `npm start` (which execs this script, so npm's SIGINT/SIGTERM reach it directly) npm is
// the parent: should npm be killed outright, nobody would stop the services any more.
if (process.env.npm_lifecycle_event) {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid === parent || stopping) return;
    log('npm was stopped: stopping everything');
    stopStack(0);
  }, 500).unref();
}

/** s3rver or Prometheus ending on its own takes the whole stack down with exit code 1. */
function superviseChild(child, name) {
  child.once('exit', (code, signal) => {
    if (stopRequested) return;
    console.error(paint('red', `[stack] ${name} stopped unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`})`));
    stopStack(1);
  });
}

function step() {
  if (stopRequested) throw new StackError('interrupted');
}

/**
 * Fails fast, before any work, when a service's port is one fetch refuses or is taken (e.g. by
 * an earlier `npm start`).
 */
async function checkPorts() {
  const ports = apps.map((app) => [app, Number(process.env[portVariable(app)] ?? DEFAULT_PORTS[app])]);
  if (withPrometheus) ports.push(['prometheus', prometheusPort()]);
  const bad = ports.filter(([, port]) => FETCH_BAD_PORTS.includes(port));
  if (bad.length) {
    let suggestion = bad[0][1] + 1;
    while (FETCH_BAD_PORTS.includes(suggestion)) suggestion++;
    throw new StackError(
      `${bad.map(([app, port]) => `${portName(app)}=${port}`).join(', ')}: fetch refuses to connect to ${bad.length > 1 ? 'these ports' : 'this port'} ` +
        `(a "bad port" of the Fetch standard), so the health check could never pass. Choose another, e.g. ${portName(bad[0][0])}=${suggestion}`,
    );
  }
  const busy = [];
  for (const [app, port] of ports) {
    if (port !== 0 && (await canConnect(reachableHost(process.env.HOST), port))) busy.push(`${app} on ${port}`);
  }
  if (busy.length) {
    throw new StackError(
      `Already in use: ${busy.join(', ')}. Stop what listens there, or choose other ports, e.g. ${portVariable(apps[0])}=${DEFAULT_PORTS[apps[0]] + 1} npm start`,
    );
  }
}

const portName = (name) => (name === 'prometheus' ? 'STACK_PROMETHEUS_PORT' : portVariable(name));

function prometheusPort() {
  const value = process.env.STACK_PROMETHEUS_PORT;
  const port = Number(value ?? DEFAULT_PROMETHEUS_PORT);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new StackError(`STACK_PROMETHEUS_PORT="${value}" must be a TCP port number (1-65535)`);
  return port;
}

/**
 * Prometheus scraping the services at `urls` (name -> URL) with the production rules, its data in
 * .data/prometheus; stopped with the stack, and its end stops the stack.
 */
async function startPrometheus(urls) {
  const port = prometheusPort();
  const args = prometheusArguments({ dir: ensureDataDir('prometheus'), port, targets: urls });
  const child = spawn('prometheus', args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  startedHere.push(() => stopChild(child, 'prometheus', 10_000));
  // Prometheus logs to stderr (warnings and worse only): no reason to paint every line red.
  for (const stream of [child.stdout, child.stderr]) relayLines(stream, 'prometheus', false);
  let exited = false;
  child.once('exit', () => (exited = true));
  superviseChild(child, 'prometheus');
  const url = `http://127.0.0.1:${port}`;
  await waitUntil(
    async () => {
      if (exited) throw new StackError('prometheus exited during start (its output is above)');
      return prometheusReady(url);
    },
    { what: `prometheus ready on ${url}`, timeoutMs: 60_000, signal: setupAbort.signal },
  );
  return url;
}

/**
 * STACK_CONTROL_PORT: the control interface through which a test suite stops and starts
 * services (tools/stack/control-server.mjs); a stopped service stays down until started.
 */
async function serveServiceControl(port) {
  const supervisor = (app) => {
    const found = supervisors.get(app);
    if (!found) throw new StackError(`no service ${app} in this stack`);
    return found;
  };
  const url = await serveControl(
    serviceRoutes({
      signal: (app, signal) => supervisor(app).hold(signal),
      start: async (app, { wait }) => {
        const service = supervisor(app).resume();
        return { url: wait ? await waitHealthy(service) : await service.url };
      },
    }),
    port,
  );
  log(`control interface on ${url}`);
}

function serviceEnv(postgres, redis, s3) {
  const env = {
    ...process.env,
    NODE_ENV: process.env.NODE_ENV || 'development',
    DATABASE_URL: postgres.url,
    // Both products' schemas are in the one database, so the console shows image subscriptions.
    IMAGE_DATABASE_URL: process.env.IMAGE_DATABASE_URL || postgres.url,
    REDIS_URL: redis.url,
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    CDN_URL: s3.cdnUrl,
  };
  // Local webhook receivers must be reachable in development; production has no such default.
  if (env.NODE_ENV === 'development') env.WEBHOOK_ALLOWED_HOSTS ??= '127.0.0.1,::1';
  // One PORT for six services cannot work: each gets only its own <APP>_PORT, if given.
  delete env.PORT;
  return env;
}

function printSummary(rows, infra, sandbox, translateUrl, prometheusUrl) {
  const width = Math.max(...rows.map(([name]) => name.length)) + 2;
  const lines = [
    '',
    paint('bold', 'The platform is running:'),
    ...rows.map(([name, url]) => `  ${name.padEnd(width)}${url}  ${paint('green', 'healthy')}`),
    `  ${'postgres'.padEnd(width)}${displayUrl(infra.postgres.url)}`,
    `  ${'redis'.padEnd(width)}${displayUrl(infra.redis.url)}`,
    `  ${'s3'.padEnd(width)}${infra.s3.endpoint}  (bucket ${infra.s3.bucket}, CDN ${infra.s3.cdnUrl})`,
    `  ${'prometheus'.padEnd(width)}${prometheusUrl ? `${prometheusUrl}  (alerts: ${prometheusUrl}/alerts)` : paint('yellow', `not started (${PROMETHEUS_OPT_OUT})`)}`,
    '',
  ];
  if (sandbox.key) {
    lines.push(
      `${paint('bold', 'Sandbox API key')} (kept in .data/sandbox-key${sandbox.created ? ', new' : ''}):`,
      `  ${paint('green', sandbox.key)}`,
      'Try it:',
      `  curl -s ${translateUrl}/api/v1/translate \\`,
      `    -H "Authorization: Bearer ${sandbox.key}" -H "Content-Type: application/json" \\`,
      `    -d '{"target":"es","texts":["The cat is sleeping on the red sofa."]}'`,
      '',
    );
  } else {
    lines.push(paint('yellow', `No sandbox key: ${sandbox.error}`), '');
  }
  if (rows.some(([name]) => name === 'console')) {
    lines.push(`Open the console at ${rows.find(([name]) => name === 'console')[1]}/console/`);
    lines.push('Console users are invited (the link is printed on the last line):', '  npm run admin -- user:invite --account NAME --email you@example.eu', '');
  }
  lines.push('Press Ctrl-C to stop everything.', '');
  console.log(lines.join('\n'));
}

async function startStack() {
  await checkPorts();
  step();
  // Each part is registered for stopping as soon as it is up, in case a later one fails.
  const infra = {};
  for (const [name, ensure] of [['postgres', ensurePostgres], ['redis', ensureRedis], ['s3', ensureS3]]) {
    infra[name] = await ensure();
    if (infra[name].stop) startedHere.push(infra[name].stop);
    step();
  }
  if (infra.s3.child) superviseChild(infra.s3.child, 's3rver');
  await ensureApertium(apps);
  step();
  await ensureCatalogPackages(apps);
  if (withPrometheus) await ensurePrometheus(PROMETHEUS_OPT_OUT);
  else warn(`${PROMETHEUS_OPT_OUT}: the stack runs without Prometheus`);
  step();
  const env = serviceEnv(infra.postgres, infra.redis, infra.s3);
  const migrating = migratingApps(apps);
  await buildApps([...new Set([...migrating, ...apps])]);
  step();
  // Each of these apps owns its own schema, and their migrations are safe to run concurrently.
  await Promise.all(migrating.map((app) => runAppCommand(app, ['migrate'], env)));
  step();
  apps.forEach((app, slot) => {
    const port = process.env[portVariable(app)];
    const appEnv = port ? { ...env, PORT: port } : { ...env };
    // Invitation links must lead to this console, whatever port it got.
    if (app === 'console') appEnv.CONSOLE_PUBLIC_URL ??= `http://localhost:${port ?? DEFAULT_PORTS.console}`;
    const supervisor = superviseService(() => startService(app, appEnv), {
      stopping: () => stopRequested,
      onStart: (service) => (services[slot] = service),
      onGiveUp: () => stopStack(1),
    });
    supervisors.set(app, supervisor);
  });
  const urls = await Promise.all(services.map((service) => waitHealthy(service, setupAbort.signal)));
  step();
  const rows = services.map((service, i) => [service.name, urls[i]]);
  const prometheusUrl = withPrometheus ? await startPrometheus(Object.fromEntries(rows)) : null;
  step();
  if (process.env.STACK_CONTROL_PORT) await serveServiceControl(Number(process.env.STACK_CONTROL_PORT));
  const translateUrl = rows.find(([name]) => name === 'translate-api')?.[1];
  // The services are useful without a key, so a problem here is reported, not fatal.
  const sandbox = await ensureSandboxKey(env, translateUrl).catch((error) => ({ error: error.message }));
  step();
  printSummary(rows, infra, sandbox, translateUrl ?? `http://127.0.0.1:${DEFAULT_PORTS['translate-api']}`, prometheusUrl);
  // After the migrations, like them against the stack's database; quick when nothing changed.
  if (catalogWanted(apps)) void buildCatalog(env, () => stopRequested);
}

setup = startStack();
setup.catch((error) => {
  if (!stopRequested) console.error(paint('red', `[stack] ${error instanceof StackError ? error.message : (error?.stack ?? error)}`));
  stopStack(1);
});
