import { describe, expect, it } from 'vitest';
import { formalityReport } from './formality-report';

describe('formalityReport', () => {
  it('says applied only when every engine that translated applied it', () => {
    expect(formalityReport('less', { appliedBy: ['deepl'], ignoredBy: [] })).toEqual({ requested: 'less', applied: true, applied_by: ['deepl'], ignored_by: [] });
    expect(formalityReport('more', { appliedBy: ['deepl'], ignoredBy: ['apertium'] })).toMatchObject({ applied: false, ignored_by: ['apertium'] });
  });

  it('never says applied when no engine translated (memory answered everything)', () => {
    expect(formalityReport('less', { appliedBy: [], ignoredBy: [] })).toMatchObject({ applied: false, applied_by: [], ignored_by: [] });
  });
});
