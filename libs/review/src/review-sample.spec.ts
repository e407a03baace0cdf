import { describe, expect, it } from 'vitest';
import { sampleIndexes } from './review-sample';

describe('sampleIndexes', () => {
  it('takes the rate of the texts rounded up, at least one, never more than there are', () => {
    expect(sampleIndexes('job_a', 1000, 0.1)).toHaveLength(100);
    expect(sampleIndexes('job_a', 11, 0.1)).toHaveLength(2);
    expect(sampleIndexes('job_a', 3, 0)).toHaveLength(1);
    expect(sampleIndexes('job_a', 4, 1)).toEqual([0, 1, 2, 3]);
  });

  it('is the same for the same job and differs between jobs', () => {
    expect(sampleIndexes('job_a', 1000, 0.1)).toEqual(sampleIndexes('job_a', 1000, 0.1));
    expect(sampleIndexes('job_a', 1000, 0.1)).not.toEqual(sampleIndexes('job_b', 1000, 0.1));
    const sample = sampleIndexes('job_a', 1000, 0.1);
    expect(sample).toEqual([...sample].sort((a, b) => a - b));
    expect(new Set(sample).size).toBe(100);
  });
});
