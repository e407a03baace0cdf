import { refusal } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { BATCH_JOB_ID, newBatchJobId } from './batch-id';
import { assertBatchWithinLimits, chunksOf } from './batch-limits';

describe('batch limits', () => {
  it('accepts 1,000 texts of 1,000,000 characters and refuses one more of either with 413', () => {
    expect(() => assertBatchWithinLimits(Array.from({ length: 1000 }, () => 'a'.repeat(1000)))).not.toThrow();
    expect(refusal(() => assertBatchWithinLimits(Array.from({ length: 1001 }, () => 'a'))).getStatus()).toBe(413);
    expect(refusal(() => assertBatchWithinLimits(['a'.repeat(999_999), 'bb'])).message).toBe('At most 1000000 characters per batch, got 1000001; submit several batches');
  });

  it('cuts texts into chunks of 50 in order', () => {
    const chunks = chunksOf(Array.from({ length: 120 }, (_, i) => i));
    expect(chunks.map((chunk) => chunk.length)).toEqual([50, 50, 20]);
    expect(chunks.flat()).toEqual(Array.from({ length: 120 }, (_, i) => i));
  });
});

describe('batch job ids', () => {
  it('are job_ and 24 random base62 characters', () => {
    const ids = Array.from({ length: 1000 }, newBatchJobId);
    for (const id of ids) expect(id).toMatch(BATCH_JOB_ID);
    expect(new Set(ids).size).toBe(1000);
    // Every base62 character turns up: nothing in the alphabet is left out or favoured away.
    expect(new Set(ids.flatMap((id) => [...id.slice(4)])).size).toBe(62);
  });
});
