#!/usr/bin/env node
// How the translation path's cost grows with its input, to catch a quadratic step: texts per
// engine call (1, 10, 50) on a warm Apertium pipeline, the HTML segmenter on a page 1×, 4× and
// 16× the size, the glossary matcher with 1,000 and 5,000 entries (also all sharing a first
// word), and JSON with 1,000 and 10,000 keys. Each step is timed in-process on the library code
// itself (bundled here with esbuild), best of a few runs; `growth` is time ratio / size ratio,
// so 1 is linear and a quadratic step shows as about the size ratio.
// Usage: node bench/translate-cost-growth.mjs [--quick]
import { parseArgs } from 'node:util';
import { importLibs } from './bench-libs.mjs';
import { heartbeat, writeBenchResult } from './bench-report.mjs';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
const RUNS = values.quick ? 2 : 5;
const startedAt = Date.now();

const { htmlLayout, JsonDocument, GlossaryMatcher, ApertiumEngine } = await importLibs({
  htmlLayout: 'translation-pipeline/src/formats/html.format.ts',
  JsonDocument: 'translation-pipeline/src/formats/json.format.ts',
  GlossaryMatcher: 'translation-pipeline/src/glossary/glossary-matcher.ts',
  ApertiumEngine: 'translation-engines/src/apertium/apertium.engine.ts',
});

/** Best time of `RUNS` calls in ms, and the heap the last call left allocated in MiB. */
async function time(fn) {
  let best = Infinity;
  let heap = 0;
  for (let i = 0; i < RUNS; i++) {
    globalThis.gc?.();
    const before = process.memoryUsage().heapUsed;
    const started = performance.now();
    const kept = await fn();
    best = Math.min(best, performance.now() - started);
    heap = (process.memoryUsage().heapUsed - before) / 2 ** 20;
    if (!kept) throw new Error('a step returned nothing');
  }
  return { ms: best, heapMiB: heap };
}

const rows = [];
const checks = [];
/** Times `run(size)` for each size; checks the last against the first. */
async function series(step, unit, sizes, run) {
  const stop = heartbeat(step);
  const measured = [];
  for (const size of sizes) {
    const { ms, heapMiB } = await time(() => run(size));
    measured.push({ size, ms });
    const growth = measured.length > 1 ? ms / measured[0].ms / (size / sizes[0]) : 1;
    rows.push([step, `${size.toLocaleString('en')} ${unit}`, Number(ms.toFixed(2)), Number(heapMiB.toFixed(1)), Number(growth.toFixed(2))]);
    console.log(`${step}: ${size} ${unit}: ${ms.toFixed(2)} ms, heap +${heapMiB.toFixed(1)} MiB, growth ${growth.toFixed(2)}`);
  }
  stop();
  const first = measured[0];
  const last = measured.at(-1);
  checks.push({ step, growth: last.ms / first.ms / (last.size / first.size), sizeRatio: last.size / first.size });
}

const PARAGRAPH = '<p>The <b>new</b> train line connects the <a href="/airport">airport</a> with the city centre. Customers can return any product within thirty days.</p>\n';
const page = (times) => `<html><body>${PARAGRAPH.repeat(20 * times)}</body></html>`;
const jsonOf = (keys) => JSON.stringify(Object.fromEntries(Array.from({ length: keys }, (_, i) => [`key${i}`, `Please send the contract number ${i} before Friday.`])));
const terms = (count, shared) => Array.from({ length: count }, (_, i) => ({ term: shared ? `contract clause ${i}` : `term${i} clause`, translation: `cláusula ${i}` }));
const text = Array.from({ length: 200 }, (_, i) => `The contract clause ${i * 7} and term${i * 3} clause apply.`).join(' ');

const engine = new ApertiumEngine();
try {
  const sentence = (i) => `Our office in Brussels opens at nine in the morning, says letter ${i}.`;
  await engine.translate({ source: 'en', target: 'es', segments: [sentence(0)] }); // start the pipeline
  await series('Apertium engine call', 'texts', [1, 10, 50], (n) => engine.translate({ source: 'en', target: 'es', segments: Array.from({ length: n }, (_, i) => sentence(i)) }));
} finally {
  await engine.close();
}
await series('HTML segmenter', '× page', [1, 4, 16], (times) => htmlLayout(page(times)).segments);
await series('Glossary matcher, build', 'entries', [1000, 5000], (count) => new GlossaryMatcher(terms(count, false)));
await series('Glossary matcher, build (shared first word)', 'entries', [1000, 5000], (count) => new GlossaryMatcher(terms(count, true)));
const matcher = new GlossaryMatcher(terms(5000, true));
await series('Glossary matcher (5,000 entries), find', '× text', values.quick ? [1, 4] : [1, 10], (times) => matcher.find(text.repeat(times)).length || 1);
await series('JSON document', 'keys', [1000, 10000], (keys) => new JsonDocument(jsonOf(keys), 0).segments);

// Twice the linear figure leaves room for noise on a busy machine; a quadratic step is far above.
const LIMIT = 2;
writeBenchResult({
  name: 'translate-cost-growth',
  title: 'Translation cost growth: time per step against input size',
  startedAt,
  metrics: checks
    .filter(({ step }) => step !== 'Apertium engine call')
    .map(({ step, growth, sizeRatio }) => ({
      id: `growth-${step.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/-$/, '')}`,
      label: `${step}: growth over ${sizeRatio}× the input (1 = linear)`,
      value: growth,
      unit: '×',
      target: { op: '<=', value: LIMIT, label: `≤ ${LIMIT} (not quadratic)` },
    })),
  tables: [{ title: 'Time and heap per step and input size (best of runs)', columns: ['step', 'input', 'ms', 'heap MiB', 'growth (1 = linear)'], rows }],
});
