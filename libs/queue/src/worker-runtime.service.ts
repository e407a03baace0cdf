import { Inject, Injectable } from '@nestjs/common';
import { MetricsRegistry } from '@platform/service-kit';
import type { Counter } from 'prom-client';
import { QUEUE_OPTIONS, type QueueModuleOptions } from './queue.options';

export interface JobOutcomes {
  completed: Counter<string>;
  failed: Counter<string>;
  retried: Counter<string>;
  stalled: Counter<string>;
}

/** What every queue worker of a process shares: its settings and its outcome counters. */
@Injectable()
export class WorkerRuntime {
  readonly concurrency: number;
  /**
   * How long a closing worker lets running jobs finish. A quarter of the shutdown budget stays
   * free for handing back unfinished jobs and closing connections before the process must exit.
   */
  readonly drainTimeoutMs: number;
  private counters?: JobOutcomes;

  constructor(
    @Inject(QUEUE_OPTIONS) options: QueueModuleOptions,
    private readonly metrics: MetricsRegistry,
  ) {
    this.concurrency = options.concurrency ?? 1;
    this.drainTimeoutMs = Math.floor((options.shutdownTimeoutMs ?? 20_000) * 0.75);
  }

  /** The outcome counters, registered by the first worker: a process that only queues jobs exports none. */
  get outcomes(): JobOutcomes {
    // Not `job`: Prometheus gives every series the `job` of its scrape target.
    const labels = ['queue', 'job_name'];
    return (this.counters ??= {
      completed: this.metrics.counter('jobs_completed_total', 'Jobs that finished successfully', labels),
      failed: this.metrics.counter('jobs_failed_total', 'Jobs that failed for good: attempts used up or a permanent error', labels),
      retried: this.metrics.counter('jobs_retried_total', 'Failed attempts that will be retried', labels),
      stalled: this.metrics.counter('jobs_stalled_total', 'Jobs whose worker stopped renewing their lock (it died or hung), put back by the stall check', labels),
    });
  }

  /** Exports every outcome of the job types a worker handles as 0 until the first one happens. */
  known(queue: string, jobs: string[]): void {
    for (const job of jobs) for (const counter of Object.values(this.outcomes)) counter.inc({ queue, job_name: job }, 0);
  }
}
