import type { Job, JobId, JobStatus, Queue } from 'bull';
import { setTimeout as sleep } from 'node:timers/promises';

/** Readings of a job that Bull finds in none of its lists before it counts as stuck. */
const STUCK_READINGS = 3;
const BETWEEN_READINGS_MS = 25;

/**
 * Bull's `getState()`, with a reading of 'stuck' taken again. Bull asks Redis list by list, so a
 * job that moves between two lists meanwhile (active to delayed after a failed attempt, waiting to
 * active when a worker takes it) is in none of them for every check and reads 'stuck' for a
 * moment. Only a job that stays out of every list through several readings is reported so.
 */
export async function settledJobState(job: Pick<Job, 'getState'>): Promise<JobStatus | 'stuck'> {
  let state = await job.getState();
  for (let reading = 1; state === 'stuck' && reading < STUCK_READINGS; reading++) {
    await sleep(BETWEEN_READINGS_MS);
    state = await job.getState();
  }
  return state;
}

/** A job as a check reads it: its settled state and that state's data. */
export interface JobSnapshot {
  state?: JobStatus | 'stuck';
  attemptsMade?: number;
  failedReason?: string;
  returnvalue?: unknown;
}

/** State first, then the job read again: a job read after reaching a final state carries that state's data. */
export async function jobSnapshot(queue: Pick<Queue, 'getJob'>, id: JobId): Promise<JobSnapshot> {
  const found = await queue.getJob(id);
  const state = found ? await settledJobState(found) : undefined;
  const job = await queue.getJob(id);
  return { state, attemptsMade: job?.attemptsMade, failedReason: job?.failedReason, returnvalue: job?.returnvalue };
}
