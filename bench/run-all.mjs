#!/usr/bin/env node
// `npm run bench`: every benchmark in BENCHMARKS, one after another, with their output on the
// terminal, then one summary of all of them: bench/results/latest.json (every results file plus
// the machine), latest.md (one table: benchmark, figure, target, met) and cost-growth.svg (the
// `Cost growth…` tables of every results file on log-log axes). A benchmark that has no npm
// script yet, or that fails, is named as such in the summary and the run carries on.
// Usage: node bench/run-all.mjs [--quick] [--only name,name]
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { root } from './bench-app.mjs';
import { formatValue, heartbeat, RESULTS_DIR } from './bench-report.mjs';
import { costGrowthSvg } from './cost-growth-chart.mjs';

/** Every benchmark that writes results, by its npm script `bench:<name>`, in running order. */
export const BENCHMARKS = ['translate', 'translate-growth', 'quality', 'batch', 'webhooks', 'recovery', 'image', 'image-uploads', 'image-growth', 'sharp-allocator', 'soak', 'console', 'memory'];

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, only: { type: 'string' } } });
const selected = values.only ? values.only.split(',').map((name) => name.trim()) : BENCHMARKS;
const unknown = selected.filter((name) => !BENCHMARKS.includes(name));
if (unknown.length) {
  console.error(`unknown benchmark ${unknown.join(', ')}; benchmarks: ${BENCHMARKS.join(', ')}`);
  process.exit(2);
}

const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Results files by name with their modification times, to tell which ones a run wrote. */
function resultFiles() {
  if (!existsSync(RESULTS_DIR)) return new Map();
  return new Map(
    readdirSync(RESULTS_DIR)
      .filter((file) => file.endsWith('.json') && file !== 'latest.json')
      .map((file) => [file, statSync(path.join(RESULTS_DIR, file)).mtimeMs]),
  );
}

/** Runs `npm run bench:<name>` with its output prefixed; resolves with its exit code. */
function runScript(name) {
  return new Promise((resolve) => {
    const args = ['run', '--silent', `bench:${name}`, ...(values.quick ? ['--', '--quick'] : [])];
    const child = spawn(npm, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let lastOutput = Date.now();
    const prefix = (stream, target) => {
      let rest = '';
      stream.on('data', (chunk) => {
        lastOutput = Date.now();
        const lines = (rest + chunk).split('\n');
        rest = lines.pop();
        for (const line of lines) target.write(`[${name}] ${line}\n`);
      });
      stream.on('end', () => rest && target.write(`[${name}] ${rest}\n`));
    };
    prefix(child.stdout, process.stdout);
    prefix(child.stderr, process.stderr);
    // A benchmark should speak every 10 s; when one does not, the runner does.
    const started = Date.now();
    const quiet = setInterval(() => {
      if (Date.now() - lastOutput >= 10_000) console.log(`[${name}] ... still running (${Math.round((Date.now() - started) / 1000)} s)`);
    }, 10_000);
    child.on('error', (error) => {
      clearInterval(quiet);
      console.error(`[${name}] could not start: ${error.message}`);
      resolve(-1);
    });
    child.on('close', (code, signal) => {
      clearInterval(quiet);
      resolve(signal ? -1 : code);
    });
  });
}

const startedAt = Date.now();
const runs = [];
for (const [index, name] of selected.entries()) {
  const step = `${index + 1}/${selected.length}`;
  if (!scripts[`bench:${name}`]) {
    console.log(`\n== ${step} ${name}: MISSING (no npm script bench:${name})`);
    runs.push({ name, status: 'missing', results: [] });
    continue;
  }
  console.log(`\n== ${step} ${name}: npm run bench:${name}${values.quick ? ' -- --quick' : ''}`);
  const before = resultFiles();
  const began = Date.now();
  const code = await runScript(name);
  const written = [...resultFiles()].filter(([file, mtime]) => before.get(file) !== mtime).map(([file]) => file);
  const results = written.map((file) => JSON.parse(readFileSync(path.join(RESULTS_DIR, file), 'utf8')));
  const seconds = Math.round((Date.now() - began) / 1000);
  const status = code !== 0 ? 'failed' : results.length === 0 ? 'no results' : 'ok';
  console.log(`== ${name}: ${status === 'failed' ? `FAILED (exit code ${code})` : status === 'no results' ? 'finished but wrote no results file' : 'ok'} after ${seconds} s`);
  runs.push({ name, status, exitCode: code, seconds, results });
}

const stopBeat = heartbeat('writing the summary');
const summary = {
  startedAt: new Date(startedAt).toISOString(),
  durationS: Math.round((Date.now() - startedAt) / 1000),
  quick: values.quick,
  machine: { cores: os.availableParallelism(), cpu: os.cpus()[0]?.model ?? 'unknown', memoryMiB: Math.round(os.totalmem() / 2 ** 20), node: process.version, platform: `${os.platform()} ${os.release()}`, load: os.loadavg() },
  benchmarks: runs,
};
mkdirSync(RESULTS_DIR, { recursive: true });
writeFileSync(path.join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(summary, null, 2)}\n`);

const cell = (text) => String(text).replace(/\|/g, '\\|');
const lines = [
  `# Benchmarks ${summary.startedAt}${values.quick ? ' (quick)' : ''}`,
  '',
  `${summary.machine.cores} cores, ${summary.machine.cpu}, ${summary.machine.memoryMiB} MiB, Node ${summary.machine.node}; load at the end ${summary.machine.load.map((l) => l.toFixed(1)).join(' ')}`,
  '',
  '| benchmark | figure | target | met |',
  '| --- | --- | --- | --- |',
];
for (const run of runs) {
  if (run.status === 'missing') lines.push(`| ${run.name} | not run: no \`bench:${run.name}\` script yet | | missing |`);
  if (run.status === 'failed') lines.push(`| ${run.name} | failed (exit code ${run.exitCode}) | | failed |`);
  if (run.status === 'no results') lines.push(`| ${run.name} | finished without a results file | | no results |`);
  for (const result of run.results) {
    for (const metric of result.metrics) {
      const target = metric.target ? `${metric.target.op} ${formatValue(metric.target.value)} ${metric.unit}${metric.target.label ? ` (${metric.target.label})` : ''}` : '';
      const met = metric.target ? (metric.met ? 'yes' : '**no**') : '';
      lines.push(`| ${cell(`${run.name}: ${metric.label}`)} | ${formatValue(metric.value)} ${cell(metric.unit)} | ${cell(target)} | ${met} |`);
    }
  }
}
const growthTables = runs.flatMap((run) => run.results.flatMap((result) => (result.tables ?? []).filter((table) => /^cost growth/i.test(table.title))));
if (growthTables.length) {
  writeFileSync(path.join(RESULTS_DIR, 'cost-growth.svg'), costGrowthSvg(growthTables));
  lines.push('', `Cost growth chart: cost-growth.svg (${growthTables.length} table${growthTables.length > 1 ? 's' : ''})`);
}
writeFileSync(path.join(RESULTS_DIR, 'latest.md'), `${lines.join('\n')}\n`);
stopBeat();
console.log(`\n${lines.slice(4).join('\n')}\n`);
console.log(`summary: ${path.relative(root, path.join(RESULTS_DIR, 'latest.md'))}, latest.json${growthTables.length ? ', cost-growth.svg' : ''}`);
const notOk = runs.filter((run) => run.status !== 'ok');
if (notOk.length) console.log(`not ok: ${notOk.map((run) => `${run.name} (${run.status})`).join(', ')}`);
