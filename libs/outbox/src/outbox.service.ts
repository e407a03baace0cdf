import { Injectable } from '@nestjs/common';
import { jobOptions, type JobType } from '@platform/queue';
import { currentTraceContext } from '@platform/service-kit';
import type { JobOptions } from 'bull';
import type { EntityManager } from 'typeorm';
import { OutboxMessage } from './outbox-message.entity';

/** Postgres channel on which a committed outbox row wakes the relays at once. */
export const OUTBOX_CHANNEL = 'outbox';

export interface OutboxEntry {
  queue: string;
  jobName: string;
  payload: object;
  /** Bull job id; a second row with the same id is enqueued only once while the job exists. */
  jobId?: string;
  /** Bull options such as attempts and backoff; Bull's defaults when absent. */
  options?: JobOptions;
}

/**
 * Writes jobs to the outbox inside the caller's transaction: they reach their queue if and only
 * if the transaction commits, and they wait in Postgres while Redis is away. A row keeps the
 * trace context of its writer, so that the job continues the writer's trace however much later
 * it is relayed.
 */
@Injectable()
export class OutboxService {
  async add(manager: EntityManager, entry: OutboxEntry): Promise<void> {
    const { traceparent = null, tracestate = null } = currentTraceContext();
    await manager.insert(OutboxMessage, {
      queue: entry.queue,
      jobName: entry.jobName,
      payload: entry.payload,
      jobId: entry.jobId ?? null,
      options: entry.options ?? {},
      attempts: 0,
      traceparent,
      tracestate,
    });
    // Delivered by Postgres only when the transaction commits, so relays never wake for nothing.
    await manager.query('SELECT pg_notify($1, $2)', [OUTBOX_CHANNEL, entry.queue]);
  }

  /** `add` for a job class of @platform/queue, carrying its queue and retry policy. */
  enqueue<T extends object>(manager: EntityManager, job: T, { jobId, delay }: { jobId?: string; delay?: number } = {}): Promise<void> {
    const type = job.constructor as JobType<T>;
    return this.add(manager, { queue: type.queue, jobName: type.name, payload: { ...job }, jobId, options: { ...jobOptions(type), delay } });
  }
}
