import { describe, expect, it } from 'vitest';
import { t } from '../../../i18n/i18n';
import { describeOrigin } from './entry-origin';

describe('describeOrigin', () => {
  it('names the job of a reviewer\u2019s verdict, and a simulated approval as such', () => {
    expect(describeOrigin(t, 'reviewer_edit', { job: 'job_1', reviewer: 'r' })).toBe('Corrected by a reviewer (job job_1)');
    expect(describeOrigin(t, 'reviewer_approval', { job: 'job_2', reviewer: 'r' })).toBe('Approved by a reviewer (job job_2)');
    expect(describeOrigin(t, 'reviewer_approval', { job: 'job_3', reviewer: null })).toBe('Approved in the sandbox\u2019s simulated review (job job_3)');
  });

  it('names the file format and the tool of an import', () => {
    expect(describeOrigin(t, 'import', { format: 'tmx', tool: 'OmegaT' })).toBe('Imported from a TMX file (OmegaT)');
    expect(describeOrigin(t, 'import', { format: 'po', tool: null })).toBe('Imported from a PO file');
  });

  it('tells the console from the API', () => {
    expect(describeOrigin(t, 'api', { user: 'u' })).toBe('Changed in the console');
    expect(describeOrigin(t, 'api', { key: 'k' })).toBe('Written through the API');
  });
});
