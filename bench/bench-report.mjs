// The one shape every benchmark leaves behind, so `npm run bench` can put all of them in one
// table: bench/results/<name>.json with the figures, each beside its target when it has one.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from './bench-app.mjs';

export const RESULTS_DIR = path.join(root, 'bench/results');

/** Whether `value` meets `target` ({ op: '>=' | '<=', value }). */
export function meets(value, target) {
  return target.op === '>=' ? value >= target.value : value <= target.value;
}

/**
 * Writes bench/results/<name>.json. `metrics` are `{ id, label, value, unit, target?, note? }`;
 * `met` is worked out here from the target. Returns the file's path.
 */
export function writeBenchResult({ name, title, startedAt, metrics, tables = [] }) {
  const result = {
    name,
    title,
    machine: { cores: os.availableParallelism(), node: process.version, cpu: os.cpus()[0]?.model ?? 'unknown' },
    startedAt: new Date(startedAt).toISOString(),
    durationS: Math.round((Date.now() - startedAt) / 1000),
    metrics: metrics.map((metric) => (metric.target ? { ...metric, met: meets(metric.value, metric.target) } : metric)),
    tables,
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  for (const metric of result.metrics) {
    const verdict = metric.target ? `  target ${metric.target.op} ${formatValue(metric.target.value)}: ${metric.met ? 'met' : 'NOT met'}` : '';
    console.log(`${metric.label}: ${formatValue(metric.value)} ${metric.unit}${verdict}`);
  }
  console.log(`results: ${path.relative(root, file)}`);
  return file;
}

export function readBenchResult(name) {
  return JSON.parse(readFileSync(path.join(RESULTS_DIR, `${name}.json`), 'utf8'));
}

export function formatValue(value) {
  if (typeof value !== 'number') return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(2);
}

/** Prints `label` with the elapsed time every `seconds` until the returned function is called. */
export function heartbeat(label, seconds = 10) {
  const started = Date.now();
  const timer = setInterval(() => console.log(`  ... ${label} (${Math.round((Date.now() - started) / 1000)} s)`), seconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
