// English input the translation benchmarks share, and the raw Apertium figure they are measured
// against: the Debian `apertium` command translating all of it in one process (its best case),
// less its start-up.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const PHRASES = [
  'The cat is sleeping on the red sofa.',
  'Our office in Brussels opens at nine in the morning.',
  'Please send the signed contract before the end of the week.',
  'The new train line connects the airport with the city centre.',
  'Customers can return any product within thirty days.',
  'The weather will be sunny with light wind from the north.',
  'We thank you for your patience during the maintenance.',
  'The committee approved the budget for the next year.',
];

/** `count` numbered English sentences, each different so no cache can help. */
export const benchTexts = (count) => Array.from({ length: count }, (_, i) => `${PHRASES[i % PHRASES.length].slice(0, -1)} number ${i + 1}.`);

const segmenter = new Intl.Segmenter('en', { granularity: 'word' });

/** Words as the API counts them. */
export const countWords = (texts) => texts.reduce((sum, text) => sum + [...segmenter.segment(text)].filter((s) => s.isWordLike).length, 0);

/** Seconds one run of the `apertium` command takes for `texts`, en -> es, its start-up included. */
export async function apertiumRunSeconds(texts, env) {
  // The apertium script wants a file or a real pipe on stdin, not Node's socket.
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-'));
  const input = path.join(dir, 'input.txt');
  const output = path.join(dir, 'output.txt');
  writeFileSync(input, texts.join('\n'));
  const started = performance.now();
  const child = spawn('apertium', ['-u', 'eng-spa', input, output], { stdio: 'inherit', env: { ...process.env, ...env } });
  const [code] = await once(child, 'close');
  const seconds = (performance.now() - started) / 1000;
  const translated = readFileSync(output, 'utf8');
  rmSync(dir, { recursive: true });
  if (code !== 0 || !translated.includes('gato')) throw new Error(`apertium failed (exit ${code})`);
  return seconds;
}

/** The fastest of `runs` runs of `run`, one after the other. */
async function fastest(runs, run) {
  let best = Infinity;
  for (let i = 0; i < runs; i++) best = Math.min(best, await run());
  return best;
}

/**
 * Seconds raw Apertium spends translating `texts`, en -> es: the command on all of them less a
 * run on one sentence, i.e. without loading its dictionaries, which the services do once at
 * start and never per request (comparing against the whole run would flatter the services on
 * small inputs). Each is the fastest of three runs: a run of a second or two moves by a third
 * with whatever else the machine does, and the raw figure is the one every ratio divides by.
 * `env` is added to the command's environment (e.g. `LD_PRELOAD` for another allocator).
 */
export async function rawApertiumSeconds(texts, env = {}) {
  const startUp = await apertiumStartUpSeconds(texts, env);
  const whole = await fastest(3, () => apertiumRunSeconds(texts, env));
  return Math.max(whole - startUp, 0.001);
}

/** The `apertium` command's start-up: the fastest of three runs on the first of `texts` alone. */
export function apertiumStartUpSeconds(texts, env = {}) {
  return fastest(3, () => apertiumRunSeconds(texts.slice(0, 1), env));
}
