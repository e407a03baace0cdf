import { SetMetadata } from '@nestjs/common';
import type { JobType } from './job-type';

export const JOB_HANDLER = 'platform:job-handler';

/**
 * Marks a method of a QueueWorker as the handler of one job type: `@ProcessJob(TranslateBatchJob)`
 * handles jobs named `TranslateBatchJob.name` and fails start-up if that job belongs to another
 * queue than the worker's.
 */
export const ProcessJob = (type: JobType) => SetMetadata(JOB_HANDLER, type);
