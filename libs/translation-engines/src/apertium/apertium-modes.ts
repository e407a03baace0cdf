import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ModePair, selectModes } from './apertium-languages';

export interface ApertiumMode extends ModePair {
  /** One argv per program of the pipeline, in order. */
  stages: string[][];
}

/**
 * Mode files are one shell pipeline with `$1` for the generator's option and `$2` for the
 * tagger's. `apertium-wblank-mode -z` is what the `apertium` command itself uses to turn a mode
 * into its null-flush form: it adds `-z` to every program that needs it (lt-proc, cg-proc,
 * apertium-tagger, apertium-transfer, lrx-proc...) and the word-bound blank helpers. We run its
 * output without a shell, each stage as its own process.
 *
 * The two helpers are left out: they move word-bound blanks (`[[…]]`) onto their words and back,
 * and our segments never hold one (markup goes in as plain superblanks, a literal `[` is escaped),
 * so they would only copy the stream. Every segment is flushed through every stage on its own,
 * so two fewer stages is about a tenth less time per segment.
 */
export function readStages(modeFile: string): string[][] {
  const pipeline = execFileSync('apertium-wblank-mode', ['-z', modeFile], { encoding: 'utf8' });
  return withoutWordBoundBlankHelpers(splitPipeline(pipeline)).map((stage) =>
    stage.flatMap((word) => {
      // `-n` is `apertium -u`: unknown words come out plain, without `*`, `#` or `@` marks.
      if (word === '$1') return ['-n'];
      // The tagger's option is only `-m` for `apertium -a`, which we never want.
      if (word === '$2') return [];
      if (word.includes('$')) throw new Error(`${modeFile}: cannot run ${word}`);
      return [word];
    }),
  );
}

const WORD_BOUND_BLANK_HELPERS = new Set(['apertium-wblank-attach', 'apertium-wblank-detach']);

const withoutWordBoundBlankHelpers = (stages: string[][]): string[][] =>
  stages.filter(([command]) => !WORD_BOUND_BLANK_HELPERS.has(path.basename(command)));

/** Splits the simple shell syntax of mode files: words, quotes, backslashes and `|`. */
export function splitPipeline(line: string): string[][] {
  const stages: string[][] = [[]];
  let word: string | null = null;
  const endWord = () => {
    if (word !== null) stages[stages.length - 1].push(word);
    word = null;
  };
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (char === "'" || char === '"') {
      const end = line.indexOf(char, i + 1);
      if (end < 0) throw new Error(`unbalanced quote in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (char === '\\') {
      word = (word ?? '') + (line[++i] ?? '');
    } else if (char === '|') {
      endWord();
      stages.push([]);
    } else if (/\s/.test(char)) {
      endWord();
    } else if (';&<>`()'.includes(char)) {
      throw new Error(`unsupported shell syntax "${char}" in: ${line}`);
    } else {
      word = (word ?? '') + char;
    }
  }
  endWord();
  if (stages.some((stage) => stage.length === 0)) throw new Error(`empty stage in: ${line}`);
  return stages;
}

export interface DiscoveredModes {
  modes: ApertiumMode[];
  /** Modes that were selected but could not be turned into a pipeline, with the reason. */
  skipped: { mode: string; reason: string }[];
}

/** Reads the installed modes once; a missing directory simply means no pairs. */
export function discoverModes(modesDir: string): DiscoveredModes {
  let files: string[];
  try {
    files = readdirSync(modesDir);
  } catch {
    return { modes: [], skipped: [] };
  }
  const names = files.filter((file) => file.endsWith('.mode')).map((file) => file.slice(0, -'.mode'.length));
  const result: DiscoveredModes = { modes: [], skipped: [] };
  for (const pair of selectModes(names)) {
    try {
      result.modes.push({ ...pair, stages: readStages(path.join(modesDir, `${pair.mode}.mode`)) });
    } catch (error) {
      result.skipped.push({ mode: pair.mode, reason: (error as Error).message });
    }
  }
  return result;
}
