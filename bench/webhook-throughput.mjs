#!/usr/bin/env node
// Signed webhook deliveries per second from one webhook-dispatcher to a loopback receiver that
// checks every signature. Events are published as translate-api and batch-worker publish them:
// the event row and its outbox row committed together (here many at once), which the
// dispatcher's relay moves to the delivery queue. Every attempt must also be recorded in
// webhook_deliveries before the run counts as finished. Many accounts, one endpoint each, share
// the receiver: each endpoint takes WEBHOOK_ENDPOINT_CONCURRENCY attempts at once.
// Usage: node bench/webhook-throughput.mjs [--quick] [--profile] [--events N] [--endpoints N]
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createBenchDatabase, leaseBenchRedis, migrateTranslationDatabase, rssMiB, startBenchApp } from './bench-app.mjs';
import { heartbeat, RESULTS_DIR, writeBenchResult } from './bench-report.mjs';
import { startBenchReceiver } from './bench-receiver.mjs';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    events: { type: 'string' },
    endpoints: { type: 'string', default: '50' },
  },
});
const EVENTS = Number(values.events ?? (values.quick ? 2000 : 10_000));
const ENDPOINTS = Number(values.endpoints);
const TARGET = 500;
/** The options DeliverWebhookJob is queued with (its retry policy), as the outbox stores them. */
const JOB_OPTIONS = {
  attempts: 10,
  backoff: { type: 'exponential-jitter', options: { delayMs: 5000, maxDelayMs: 300_000 } },
  removeOnComplete: { age: 86_400, count: 1000 },
  removeOnFail: { age: 604_800 },
};

const startedAt = Date.now();
const stopBeat = heartbeat('webhook benchmark running');
const database = await createBenchDatabase('bench_webhooks');
const redis = await leaseBenchRedis();
const secrets = new Map();
const receiver = await startBenchReceiver((url) => secrets.get(url));
let dispatcher;
const cleanUp = async () => {
  await dispatcher?.stop();
  await receiver.stop();
  await redis.release();
  await database.drop();
};
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void cleanUp().finally(() => process.exit(130)));

try {
  const profileDir = values.profile ? path.join(RESULTS_DIR, 'profiles') : undefined;
  await migrateTranslationDatabase(database.url);
  dispatcher = await startBenchApp('webhook-dispatcher', {
    env: { DATABASE_URL: database.url, REDIS_URL: redis.url, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
    migrate: false,
    nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  });
  const accounts = await subscribe();

  // A first round warms connections and code paths; the measured one follows.
  await deliverRound(accounts, Math.min(200, EVENTS));
  const round = await deliverRound(accounts, EVENTS);
  const rate = EVENTS / round.seconds;
  console.log(`${EVENTS} deliveries to ${ENDPOINTS} endpoints in ${round.seconds.toFixed(2)} s: ${rate.toFixed(0)}/s`);
  stopBeat();
  writeBenchResult({
    name: 'webhook-throughput',
    title: `Signed webhook deliveries per second, one webhook-dispatcher, ${ENDPOINTS} endpoints on a loopback receiver`,
    startedAt,
    metrics: [
      { id: 'deliveries-per-second', label: 'signed deliveries per second, each recorded', value: rate, unit: '/s', target: { op: '>=', value: TARGET, label: `at least ${TARGET}/s` } },
      { id: 'deliveries', label: 'deliveries measured', value: EVENTS, unit: 'deliveries' },
      { id: 'p95-latency', label: 'publish to receipt, 95th percentile', value: round.p95Ms, unit: 'ms' },
      { id: 'dispatcher-peak', label: 'webhook-dispatcher peak RSS', value: rssMiB(dispatcher.child.pid, 'VmHWM') ?? Number.NaN, unit: 'MiB' },
    ],
  });
} finally {
  stopBeat();
  await cleanUp();
}

/** Accounts with an endpoint each on the receiver, under its own path and secret. */
async function subscribe() {
  const accounts = [];
  for (let n = 0; n < ENDPOINTS; n++) {
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const [{ id }] = await database.query(`INSERT INTO translation.accounts (name) VALUES ($1) RETURNING id`, [`bench-${n}`]);
    await database.query(`INSERT INTO translation.webhook_endpoints (account_id, sandbox, url, secret) VALUES ($1, false, $2, $3)`, [id, `${receiver.url}/hooks/${n}`, secret]);
    secrets.set(`/hooks/${n}`, secret);
    accounts.push(id);
  }
  return accounts;
}

/** Publishes `count` events round-robin over the accounts and waits until each is delivered and recorded. */
async function deliverRound(accounts, count) {
  const before = receiver.verified.length;
  const ids = Array.from({ length: count }, () => `msg_${randomBytes(20).toString('base64url')}`);
  const owners = ids.map((_, i) => accounts[i % accounts.length]);
  const payload = { type: 'batch.completed', timestamp: new Date().toISOString(), data: { job: 'job_benchmark', status: 'done', results: [] } };
  const published = performance.now();
  await database.query(
    `WITH events AS (
       INSERT INTO translation.webhook_events (id, account_id, sandbox, type, payload)
       SELECT id, account_id, false, 'batch.completed', $3::jsonb FROM unnest($1::text[], $2::uuid[]) AS e(id, account_id)
       RETURNING id)
     INSERT INTO translation.outbox (queue, job_name, payload, options, attempts)
     SELECT 'webhook-deliveries', 'DeliverWebhookJob', jsonb_build_object('eventId', id), $4::jsonb, 0 FROM events`,
    [ids, owners, JSON.stringify(payload), JSON.stringify(JOB_OPTIONS)],
  );
  await database.query(`SELECT pg_notify('outbox', 'webhook-deliveries')`);
  while (receiver.verified.length - before < count) {
    if (receiver.refused > 0) throw new Error(`the receiver refused ${receiver.refused} deliveries`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const received = performance.now();
  // Counted only once every attempt is recorded too.
  for (;;) {
    const [{ recorded }] = await database.query(`SELECT count(*)::int AS recorded FROM translation.webhook_deliveries WHERE event_id = ANY($1) AND status_code = 204`, [ids]);
    if (recorded === count) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const done = performance.now();
  const latencies = receiver.verified
    .slice(before)
    .map((delivery) => delivery.at - published)
    .sort((a, b) => a - b);
  console.log(`  ${count} delivered in ${((received - published) / 1000).toFixed(2)} s, all recorded after ${((done - published) / 1000).toFixed(2)} s`);
  return { seconds: (done - published) / 1000, p95Ms: latencies[Math.floor(latencies.length * 0.95)] };
}
