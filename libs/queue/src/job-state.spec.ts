import type { JobStatus } from 'bull';
import { describe, expect, it } from 'vitest';
import { settledJobState } from './job-state';

/** A job whose successive getState() answers are `readings`, the last one repeated. */
function readingJob(...readings: (JobStatus | 'stuck')[]) {
  let taken = 0;
  return {
    get taken() {
      return taken;
    },
    getState: async () => readings[Math.min(taken++, readings.length - 1)],
  };
}

describe('settledJobState', () => {
  it('takes a reading of stuck again and answers the state the job moved into', async () => {
    const job = readingJob('stuck', 'delayed');
    expect(await settledJobState(job)).toBe('delayed');
    expect(job.taken).toBe(2);
  });

  it('reports stuck for a job that stays in no list through every reading', async () => {
    const job = readingJob('stuck');
    expect(await settledJobState(job)).toBe('stuck');
    expect(job.taken).toBe(3);
  });

  it('answers any other state at the first reading', async () => {
    const job = readingJob('active', 'completed');
    expect(await settledJobState(job)).toBe('active');
    expect(job.taken).toBe(1);
  });
});
