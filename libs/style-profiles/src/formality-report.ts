import type { Formality, FormalityOutcome } from '@platform/translation-pipeline';

/** What became of a formality asked for, as answers report it. */
export interface FormalityReport {
  requested: Exclude<Formality, 'default'>;
  /** Every engine that translated something applied it; false when one could not, or no engine translated. */
  applied: boolean;
  applied_by: string[];
  ignored_by: string[];
}

export function formalityReport(requested: Exclude<Formality, 'default'>, { appliedBy, ignoredBy }: FormalityOutcome): FormalityReport {
  return { requested, applied: appliedBy.length > 0 && ignoredBy.length === 0, applied_by: appliedBy, ignored_by: ignoredBy };
}
