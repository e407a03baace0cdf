#!/usr/bin/env node
// A batch end to end, beside raw Apertium on the same texts: from POST /api/v1/batches until the
// signed `batch.completed` webhook has reached a local receiver and its signature checked out.
// translate-api, batch-worker and webhook-dispatcher run built, on free ports, with a database and
// a Redis database of their own; the engine is Apertium (en -> es). A 10-text batch warms the
// pipelines first, then batches of 10, 100 and 1,000 texts show how time and memory grow.
// Usage: node bench/batch-throughput.mjs [--quick] [--profile]
//   --quick   batches of 10 and 100 texts, the target taken at 100
//   --profile writes batch-worker's CPU profile to bench/results/profiles/
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchTexts, rawApertiumSeconds } from './bench-apertium.mjs';
import { startBatchStack } from './bench-batches.mjs';
import { heartbeat, writeBenchResult } from './bench-report.mjs';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, profile: { type: 'boolean', default: false } } });
const SIZES = values.quick ? [10, 100] : [10, 100, 1000];
const HEADLINE = SIZES.at(-1);
const TARGET_RATIO = 1.25;

const startedAt = Date.now();
const stopBeat = heartbeat('batch benchmark running');

console.log(`raw apertium on ${HEADLINE} texts ...`);
const rawSeconds = await rawApertiumSeconds(benchTexts(HEADLINE));
console.log(`raw apertium: ${rawSeconds.toFixed(2)} s`);

const stack = await startBatchStack({ profile: values.profile });
try {
  await stack.runBatch(benchTexts(10)); // warms the engine's pipelines, connections and code paths
  const rows = [];
  const measured = new Map();
  for (const size of SIZES) {
    const texts = benchTexts(size);
    const run = await stack.runBatch(texts);
    measured.set(size, run);
    rows.push([size, round(run.seconds, 2), round((run.seconds * 1000) / size, 1), round(run.workerPeakMiB, 0), round(run.dispatcherPeakMiB, 0), round(run.apiPeakMiB, 0)]);
    console.log(`${String(size).padStart(5)} texts: ${run.seconds.toFixed(2)} s end to end, batch-worker peak ${run.workerPeakMiB.toFixed(0)} MiB`);
  }
  const headline = measured.get(HEADLINE);
  const ratio = headline.seconds / rawSeconds;
  const perText = SIZES.map((size) => measured.get(size).seconds / size);
  stopBeat();
  writeBenchResult({
    name: 'batch-throughput',
    title: `Batch of ${HEADLINE} texts end to end (submitted to signed webhook received) beside raw Apertium, en -> es`,
    startedAt,
    metrics: [
      { id: 'raw-seconds', label: `raw apertium, ${HEADLINE} texts`, value: rawSeconds, unit: 's' },
      { id: 'batch-seconds', label: `batch end to end, ${HEADLINE} texts`, value: headline.seconds, unit: 's' },
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
  if (stack.profileDir) console.log(`batch-worker CPU profile in ${path.relative(process.cwd(), stack.profileDir)}`);
}

function round(value, digits) {
  return Number(value.toFixed(digits));
}
