import { ApiProblem } from '../../../api/client';
import { placeProblem, type PlacedProblem } from '../../../ui/field-problem';

export const createProblem = (error: unknown) =>
  placeProblem<'name' | 'source'>(error, [
    ['name', /^(name\b|the name\b)/i],
    ['source', /^source\b/i],
  ]);

/**
 * Refusals of an import: about the languages asked for, the format, or else the file itself (a
 * malformed file names the line or element; a file too large or too full is refused whole).
 */
export function importProblem(error: unknown): PlacedProblem<'file' | 'format' | 'source' | 'target'> | undefined {
  const placed = placeProblem<'format' | 'source' | 'target'>(error, [
    ['format', /^(format\b|say which format)/i],
    ['source', /^(source\b|this memory holds sources)/i],
    ['target', /^target\b/i],
  ]);
  if (!placed) return undefined;
  const status = error instanceof ApiProblem ? error.status : 0;
  return placed.field === 'form' && [413, 415, 422].includes(status) ? { ...placed, field: 'file' } : placed;
}

/** Refusals of an entry edit: `the source is empty`, `the translation is longer than 5000 characters`. */
export const entryProblem = (error: unknown) =>
  placeProblem<'source' | 'target'>(error, [
    ['source', /^(source\b|the source\b)/i],
    ['target', /^(target\b|the translation\b)/i],
  ]);

/** What a customer can do about a refusal, by its kind; none when the message says it all. */
export type ProblemAdvice = 'not-found' | 'file-fix' | 'file-split' | 'memory-full' | 'retry';

export function adviceFor(error: unknown): ProblemAdvice | undefined {
  if (!(error instanceof ApiProblem)) return error ? 'retry' : undefined;
  if (error.status === 404) return 'not-found';
  if (error.status === 413) return /entries/.test(error.message) ? 'memory-full' : 'file-split';
  if (error.status === 422 && /file/i.test(error.message)) return 'file-fix';
  if (error.status >= 500) return 'retry';
  return undefined;
}
