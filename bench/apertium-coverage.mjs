#!/usr/bin/env node
// How much of everyday text each Apertium direction leaves untranslated: the same 32 sentences in
// each source language (bench/apertium-coverage/<code>.txt) go through every candidate direction,
// direct or chained through a pivot, with Apertium's marks on. A word is untranslated when the
// final output marks it: `*` unknown to the analyser, `@` missing from the bilingual dictionary,
// `#` not generated in the target language; a sentence that comes out empty loses all its words.
// A chain's unknown words keep their mark through later steps, so the last output counts them
// all. The marks are the first test of a direction (at most THRESHOLD); reading the output with
// --show is the second, since a word translated in the wrong sense carries no mark.
// docs/languages.md records the figures and what was decided.
// Usage: node bench/apertium-coverage.mjs [--show] [--only en-hr,...]
//   --show prints each translation under its table row, for reading the quality.
// Directions whose modes are missing are listed as such. The candidates beyond APERTIUM_PACKAGES:
//   apt-get install --no-install-recommends apertium-hbs-eng apertium-mkd-bul apertium-mkd-eng \
//     apertium-hbs-mkd apertium-isl-swe apertium-isl-eng apertium-cat-ita apertium-fra-cat \
//     apertium-por-cat apertium-eng-cat apertium-dan-nor apertium-swe-nor
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const MODES_DIR = '/usr/share/apertium/modes';
const SENTENCES_DIR = path.join(import.meta.dirname, 'apertium-coverage');
/** Highest share of marked words (in %) for a direction to be offered. */
const THRESHOLD = 10;

/** Candidate directions: the modes of each step, in order. */
const CANDIDATES = [
  // Offered before: direct modes and Spanish pivots, as the yardstick.
  ['en', 'es', ['eng-spa']],
  ['es', 'en', ['spa-eng']],
  ['fr', 'es', ['fr-es']],
  ['es', 'fr', ['es-fr']],
  ['pt', 'es', ['pt-es']],
  ['es', 'pt', ['es-pt']],
  ['it', 'es', ['ita-spa']],
  ['es', 'it', ['spa-ita']],
  ['ro', 'es', ['ro-es']],
  ['sv', 'da', ['swe-dan']],
  ['da', 'sv', ['dan-swe']],
  ['hr', 'sl', ['hbs-slv']],
  ['sl', 'hr', ['slv-hbs_HR']],
  ['en', 'fr', ['eng-spa', 'es-fr']],
  ['fr', 'en', ['fr-es', 'spa-eng']],
  ['en', 'it', ['eng-spa', 'spa-ita']],
  ['en', 'pt', ['eng-spa', 'es-pt']],
  ['ro', 'en', ['ro-es', 'spa-eng']],
  // English <-> Croatian (apertium-hbs-eng), and what it opens with an English pivot.
  ['en', 'hr', ['eng-hbs_HR']],
  ['hr', 'en', ['hbs-eng']],
  ['es', 'hr', ['spa-eng', 'eng-hbs_HR']],
  ['hr', 'es', ['hbs-eng', 'eng-spa']],
  ['sl', 'en', ['slv-hbs_HR', 'hbs-eng']],
  ['en', 'sl', ['eng-hbs', 'hbs-slv']],
  // Bulgarian through Macedonian (apertium-mkd-bul, apertium-mkd-eng, apertium-hbs-mkd).
  // There is no English -> Macedonian mode, so English -> Bulgarian has no chain.
  ['hr', 'bg', ['hbs-mkd', 'mkd-bul']],
  ['bg', 'hr', ['bul-mkd', 'mkd-hbs_HR']],
  ['bg', 'en', ['bul-mkd', 'mkd-eng']],
  // Swedish -> English through Icelandic (apertium-isl-swe, apertium-isl-eng).
  ['sv', 'en', ['swe-isl', 'isl-eng']],
  // Catalan and Norwegian Bokmål as pivots between languages the engine already links.
  ['it', 'fr', ['ita-cat', 'cat-fra']],
  ['it', 'fr', ['ita-spa', 'es-fr']],
  ['fr', 'it', ['fra-cat', 'cat-ita']],
  ['fr', 'it', ['fr-es', 'spa-ita']],
  ['pt', 'it', ['por-cat', 'cat-ita']],
  ['pt', 'it', ['pt-es', 'spa-ita']],
  ['en', 'it', ['eng-cat', 'cat-ita']],
  ['da', 'sv', ['dan-nob', 'nob-swe']],
];

const { values } = parseArgs({ options: { show: { type: 'boolean', default: false }, only: { type: 'string' } } });
const only = values.only?.split(',');

const MARKED = /(^|[^\p{L}\p{N}])[*@#]+\p{L}/u;
const WORD = /\p{L}/u;

function translate(text, modes) {
  // `apertium` keeps one sentence a line; its default output carries the marks. It reads its
  // input from a file: its standard input is opened as /dev/stdin, which fails on Node's pipes.
  const dir = mkdtempSync(path.join(tmpdir(), 'apertium-coverage-'));
  try {
    return modes.reduce((input, mode) => {
      const file = path.join(dir, 'input.txt');
      writeFileSync(file, input);
      return execFileSync('apertium', [mode, file], { encoding: 'utf8', maxBuffer: 1 << 26 });
    }, text);
  } finally {
    rmSync(dir, { recursive: true });
  }
}

function measure(source, modes) {
  const sentences = readFileSync(path.join(SENTENCES_DIR, `${source}.txt`), 'utf8').trimEnd().split('\n');
  let output = translate(`${sentences.join('\n')}\n`, modes).trimEnd().split('\n');
  // Some pairs drop whole sentences (the rest shifts up): then each sentence goes alone, and one
  // that comes out empty counts as lost, all its words untranslated.
  if (output.length !== sentences.length) output = sentences.map((line) => translate(`${line}\n`, modes).trim());
  const counts = { '*': 0, '@': 0, '#': 0, lost: 0 };
  let total = 0;
  let lost = 0;
  sentences.forEach((line, i) => {
    if (!output[i].trim()) {
      lost++;
      counts.lost += words(line).length;
      total += words(line).length;
      return;
    }
    for (const word of words(output[i])) {
      total++;
      const match = MARKED.exec(word);
      if (match) counts[word[match.index + match[1].length]]++;
    }
  });
  const marked = counts['*'] + counts['@'] + counts['#'] + counts.lost;
  return { sentences: sentences.length, lost, words: total, counts, marked, pairs: sentences.map((line, i) => [line, output[i]]) };
}

const words = (line) => line.split(/\s+/).filter((word) => WORD.test(word));

/** The Debian package of each installed mode, for telling what a direction needs. */
function packagesOf(modes) {
  const files = modes.map((mode) => path.join(MODES_DIR, `${mode}.mode`));
  const { stdout } = spawnSync('dpkg-query', ['-S', ...files], { encoding: 'utf8' });
  return [...new Set(stdout.split('\n').filter(Boolean).map((line) => line.split(':')[0]))];
}

const percent = (part, whole) => ((100 * part) / whole).toFixed(1);
const rows = [['direction', 'modes', 'packages', 'sentences', 'lost', 'words', '* %', '@ %', '# %', 'marked %', `<= ${THRESHOLD}%`]];
const shown = [];
for (const [source, target, modes] of CANDIDATES) {
  if (only && !only.includes(`${source}-${target}`)) continue;
  const missing = modes.filter((mode) => !existsSync(path.join(MODES_DIR, `${mode}.mode`)));
  if (missing.length) {
    rows.push([`${source}->${target}`, modes.join(' | '), '', '', '', '', '', '', '', '', `not installed: ${missing.join(', ')}`]);
    continue;
  }
  const result = measure(source, modes);
  const share = (100 * result.marked) / result.words;
  rows.push([
    `${source}->${target}`,
    modes.join(' | '),
    packagesOf(modes).join(' '),
    String(result.sentences),
    String(result.lost),
    String(result.words),
    ...['*', '@', '#'].map((mark) => percent(result.counts[mark], result.words)),
    share.toFixed(1),
    share <= THRESHOLD ? 'yes' : 'no',
  ]);
  if (values.show) shown.push(`\n${source}->${target} (${modes.join(' | ')})`, ...result.pairs.map(([from, to]) => `  ${from}\n    ${to}`));
}

const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
for (const row of rows) console.log(row.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd());
if (shown.length) console.log(shown.join('\n'));
