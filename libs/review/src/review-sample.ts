import { createHash } from 'node:crypto';

/**
 * The indexes of `total` texts that go to review: `rate` of them rounded up, at least one.
 * Ranked by a hash of job id and index, so the choice is spread over the batch, looks random
 * to the customer and is the same however often it is computed for a job.
 */
export function sampleIndexes(jobId: string, total: number, rate: number): number[] {
  const count = Math.min(total, Math.max(1, Math.ceil(total * rate)));
  const rank = (idx: number) => createHash('sha256').update(`${jobId}:${idx}`).digest('hex');
  return Array.from({ length: total }, (_, idx) => ({ idx, rank: rank(idx) }))
    .sort((a, b) => (a.rank < b.rank ? -1 : 1))
    .slice(0, count)
    .map(({ idx }) => idx)
    .sort((a, b) => a - b);
}
