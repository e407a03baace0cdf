#!/usr/bin/env node
// How soon batches move again after `kill -9` of batch-worker mid-job: a few batches run at once,
// the worker is killed once they have made progress, a new one is started at once (as an
// orchestrator would), and the benchmark times until every batch moves again and until each is
// done, then checks each finished exactly once: every result, one charge, one announced event.
// The stack runs batch-worker with its default lock settings (see docs/configuration.md).
// Usage: node bench/worker-recovery.mjs [--quick]
import { parseArgs } from 'node:util';
import { benchTexts } from './bench-apertium.mjs';
import { startBatchStack } from './bench-batches.mjs';
import { heartbeat, writeBenchResult } from './bench-report.mjs';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
const BATCHES = values.quick ? 2 : 4;
const TEXTS = 1000;
const TARGET_S = 10;

const startedAt = Date.now();
const stopBeat = heartbeat('recovery benchmark running');
const stack = await startBatchStack();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const progress = async (jobs) =>
  new Map((await stack.database.query(`SELECT id, status, done_count FROM translation.batch_jobs WHERE id = ANY($1)`, [jobs])).map((row) => [row.id, row]));

try {
  await stack.runBatch(benchTexts(10)); // warms the engine's pipelines
  const texts = benchTexts(TEXTS);
  const jobs = [];
  for (let n = 0; n < BATCHES; n++) jobs.push(await stack.submit(texts));

  // Mid-job: every batch has stored a chunk, none is finished.
  let atKill;
  for (;;) {
    atKill = await progress(jobs);
    const rows = [...atKill.values()];
    if (rows.some((row) => row.status !== 'processing')) throw new Error('a batch finished before the worker could be killed mid-job; use more batches');
    if (rows.every((row) => row.done_count > 0)) break;
    await sleep(10);
  }
  const killedAt = performance.now();
  stack.worker.child.kill('SIGKILL');
  console.log(`batch-worker killed at ${[...atKill.values()].map((row) => row.done_count).join(', ')} of ${TEXTS} texts per batch`);
  await stack.startWorker();
  const bootS = (performance.now() - killedAt) / 1000;
  console.log(`new batch-worker healthy after ${bootS.toFixed(1)} s`);

  const movedAt = new Map();
  while (movedAt.size < jobs.length) {
    const now = await progress(jobs);
    for (const job of jobs) if (!movedAt.has(job) && now.get(job).done_count > atKill.get(job).done_count) movedAt.set(job, performance.now());
    await sleep(20);
  }
  const movedS = (Math.max(...movedAt.values()) - killedAt) / 1000;
  console.log(`every batch moved again ${movedS.toFixed(1)} s after the kill`);
  const deliveries = await Promise.all(jobs.map((job) => stack.announced(job)));
  const doneS = (Math.max(...deliveries.map((delivery) => delivery.at)) - killedAt) / 1000;

  // Exactly once: all results, one charge never refunded, one event, one webhook-id per batch.
  const [{ charges, refunded }] = await stack.database.query(
    `SELECT count(*)::int AS charges, count(refunded_at)::int AS refunded FROM translation.quota_charges WHERE reference = ANY($1)`,
    [jobs.map((job) => `batch:${job}`)],
  );
  const [{ events }] = await stack.database.query(`SELECT count(*)::int AS events FROM translation.webhook_events WHERE payload->'data'->>'job' = ANY($1)`, [jobs]);
  const [{ recoveries }] = await stack.database.query(`SELECT coalesce(sum(recoveries), 0)::int AS recoveries FROM translation.batch_jobs WHERE id = ANY($1)`, [jobs]);
  const complete = deliveries.every(({ payload }) => payload.data.status === 'done' && payload.data.results.length === TEXTS && payload.data.results.every((r, i) => r.index === i && r.translation));
  const webhookIds = new Set(stack.receiver.verified.filter((d) => jobs.includes(d.payload.data.job)).map((d) => d.id));
  const once = complete && charges === jobs.length && refunded === 0 && events === jobs.length && webhookIds.size === jobs.length;
  if (!once) throw new Error(`not exactly once: complete ${complete}, ${charges} charges (${refunded} refunded), ${events} events, ${webhookIds.size} webhook-ids for ${jobs.length} batches`);
  console.log(`every batch done ${doneS.toFixed(1)} s after the kill, each charged, stored and announced once`);

  stopBeat();
  writeBenchResult({
    name: 'worker-recovery',
    title: `kill -9 of batch-worker mid-job with ${BATCHES} batches of ${TEXTS} texts running; a new worker started at once`,
    startedAt,
    metrics: [
      { id: 'moved-again', label: 'kill to every batch moving again', value: movedS, unit: 's', target: { op: '<=', value: TARGET_S, label: `within ${TARGET_S} s` } },
      { id: 'worker-boot', label: 'kill to the new worker answering /health', value: bootS, unit: 's' },
      { id: 'all-done', label: 'kill to every batch announced done', value: doneS, unit: 's' },
      { id: 'reconciler-recoveries', label: 'batches the reconciler had to queue again', value: recoveries, unit: 'batches', note: '0: Bull’s stalled-job check took them up' },
      { id: 'exactly-once', label: 'batches finished exactly once', value: jobs.length, unit: `of ${jobs.length}` },
    ],
  });
} finally {
  stopBeat();
  await stack.stop();
}
