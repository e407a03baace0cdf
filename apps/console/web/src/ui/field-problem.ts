import { ApiProblem } from '../api/client';
import { asSentence } from './ApiErrorMessage';

/** A refusal of the API placed beside the field it is about; `form` when it is about none of them. */
export interface PlacedProblem<F extends string> {
  field: F | 'form';
  message: string;
}

/** The first field whose pattern the API's message matches: the API names what it refuses at the start of its message. */
export function placeProblem<F extends string>(error: unknown, patterns: [F, RegExp][]): PlacedProblem<F> | undefined {
  if (!error) return undefined;
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof ApiProblem) || error.status !== 422) return { field: 'form', message };
  const found = patterns.find(([, pattern]) => pattern.test(message));
  // Under the field's label, a `field: ` prefix would only repeat it.
  return { field: found?.[0] ?? 'form', message: found ? asSentence(message.replace(/^[a-z_]+: /, '')) : message };
}

/** The message to show under `field`, if the refusal is about it. */
export const problemAt = <F extends string>(placed: PlacedProblem<F> | undefined, field: F): string | undefined => (placed?.field === field ? placed.message : undefined);
