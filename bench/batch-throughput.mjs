#!/usr/bin/env node
// A batch end to end, beside raw Apertium on the same texts: from POST /api/v1/batches until the
// signed `batch.completed` webhook has reached a local receiver and its signature checked out.
// translate-api, batch-worker and webhook-dispatcher run built, on free ports, with a database and
// a Redis database of their own; the engine is Apertium (en -> es). A 10-text batch warms the
// pipelines first, then batches of 10, 100 and 1,000 texts show how time and memory grow.
// Engine alone: the platform's Apertium engine in this process on the same texts, sent as
// batch-worker sends them (50-text calls, eight in flight, every text its own segment), so that
// batch / engine is the batch's own work around the engine and engine / raw what keeping texts
// apart costs Apertium on this machine. Raw, the engine alone and the headline batch take turns
// in rounds and each side's times are added up, so a machine that slows down or speeds up mid-run
// weighs on all three alike (a run of under a second moves by a third with whatever else it does).
// Usage: node bench/batch-throughput.mjs [--quick] [--profile]
//   --quick   batches of 10 and 100 texts, the target taken at 100, one round
//   --profile writes batch-worker's CPU profile to bench/results/profiles/
import path from 'node:path';
import { parseArgs } from 'node:util';
import { secondsInFlight } from './bench-app.mjs';
import { apertiumRunSeconds, apertiumStartUpSeconds, benchTexts } from './bench-apertium.mjs';
import { importLibs } from './bench-libs.mjs';
import { startBatchStack } from './bench-batches.mjs';
import { heartbeat, writeBenchResult } from './bench-report.mjs';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, profile: { type: 'boolean', default: false } } });
const SIZES = values.quick ? [10, 100] : [10, 100, 1000];
const HEADLINE = SIZES.at(-1);
const TARGET_RATIO = 1.25;
const ROUNDS = values.quick ? 1 : 3;
/** batch-worker's engine calls in flight: four chunks per step, two steps at once. */
const CALLS_IN_FLIGHT = 8;

/**
 * The platform's Apertium engine in this process; `seconds(texts)` sends them in chunks as
 * batch-worker takes them, CALLS_IN_FLIGHT calls at once.
 */
async function engineAlone() {
  const { ApertiumEngine, BATCH_CHUNK_SIZE } = await importLibs({
    ApertiumEngine: 'translation-engines/src/apertium/apertium.engine.ts',
    BATCH_CHUNK_SIZE: 'batches/src/batch-limits.ts',
  });
  const engine = new ApertiumEngine();
  const translate = (segments) => engine.translate({ source: 'en', target: 'es', segments });
  await translate(benchTexts(10)); // start the pipeline
  return {
    seconds(texts) {
      const chunks = Array.from({ length: Math.ceil(texts.length / BATCH_CHUNK_SIZE) }, (_, i) => texts.slice(i * BATCH_CHUNK_SIZE, (i + 1) * BATCH_CHUNK_SIZE));
      return secondsInFlight(chunks, CALLS_IN_FLIGHT, translate);
    },
    close: () => engine.close(),
  };
}

const startedAt = Date.now();
const stopBeat = heartbeat('batch benchmark running');

const headlineTexts = benchTexts(HEADLINE);
const startUp = await apertiumStartUpSeconds(headlineTexts);
const engine = await engineAlone();
const stack = await startBatchStack({ profile: values.profile });
try {
  await stack.runBatch(benchTexts(10)); // warms the engine's pipelines, connections and code paths
  const rows = [];
  const measured = new Map();
  for (const size of SIZES.filter((size) => size !== HEADLINE)) measured.set(size, await stack.runBatch(benchTexts(size)));
  const totals = { raw: 0, engine: 0, batch: 0 };
  for (let i = 0; i < ROUNDS; i++) {
    totals.raw += Math.max((await apertiumRunSeconds(headlineTexts)) - startUp, 0.001);
    totals.engine += await engine.seconds(headlineTexts);
    const run = await stack.runBatch(headlineTexts);
    totals.batch += run.seconds;
    // The growth table has the headline size's mean time and its last round's memory.
    measured.set(HEADLINE, { ...run, seconds: totals.batch / (i + 1) });
    console.log(`round ${i + 1}/${ROUNDS}, ${HEADLINE} texts: raw ${totals.raw.toFixed(2)} s, engine alone ${totals.engine.toFixed(2)} s, batch ${totals.batch.toFixed(2)} s so far`);
  }
  for (const size of SIZES) {
    const run = measured.get(size);
    rows.push([size, round(run.seconds, 2), round((run.seconds * 1000) / size, 1), round(run.workerPeakMiB, 0), round(run.dispatcherPeakMiB, 0), round(run.apiPeakMiB, 0)]);
    console.log(`${String(size).padStart(5)} texts: ${run.seconds.toFixed(2)} s end to end, batch-worker peak ${run.workerPeakMiB.toFixed(0)} MiB`);
  }
  const [rawSeconds, engineSeconds, batchSeconds] = [totals.raw, totals.engine, totals.batch].map((total) => total / ROUNDS);
  const ratio = batchSeconds / rawSeconds;
  const perText = SIZES.map((size) => measured.get(size).seconds / size);
  stopBeat();
  writeBenchResult({
    name: 'batch-throughput',
    title: `Batch of ${HEADLINE} texts end to end (submitted to signed webhook received) beside raw Apertium, en -> es`,
    startedAt,
    metrics: [
      { id: 'raw-seconds', label: `raw apertium, ${HEADLINE} texts`, value: rawSeconds, unit: 's' },
      { id: 'engine-seconds', label: `engine alone, ${HEADLINE} texts as batch-worker sends them`, value: engineSeconds, unit: 's' },
      { id: 'batch-seconds', label: `batch end to end, ${HEADLINE} texts`, value: batchSeconds, unit: 's' },
      { id: 'engine-over-raw', label: 'engine alone / raw apertium', value: engineSeconds / rawSeconds, unit: 'x', note: 'what keeping every text its own segment costs' },
      { id: 'batch-over-engine', label: 'batch end to end / engine alone', value: batchSeconds / engineSeconds, unit: 'x', note: "the batch's own work around the engine" },
      {
        id: 'batch-over-raw',
        label: 'batch end to end / raw apertium',
        value: ratio,
        unit: 'x',
        target: { op: '<=', value: TARGET_RATIO, label: `at most ${TARGET_RATIO} x raw Apertium` },
      },
      {
        id: 'per-text-growth',
        label: `time per text, ${SIZES.at(-1)} texts / ${SIZES.at(-2)} texts`,
        value: perText.at(-1) / perText.at(-2),
        unit: 'x',
        note: 'about 1 or below: time grows linearly (or better) with the texts of a batch',
      },
    ],
    tables: [
      {
        title: 'Cost growth of one batch (end to end; peak RSS of each process during the batch)',
        columns: ['texts', 'seconds', 'ms per text', 'batch-worker peak MiB', 'webhook-dispatcher peak MiB', 'translate-api peak MiB'],
        rows,
      },
    ],
  });
} finally {
  stopBeat();
  await stack.stop();
  await engine.close();
  if (stack.profileDir) console.log(`batch-worker CPU profile in ${path.relative(process.cwd(), stack.profileDir)}`);
}

function round(value, digits) {
  return Number(value.toFixed(digits));
}
