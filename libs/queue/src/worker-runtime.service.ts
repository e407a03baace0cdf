import { Inject, Injectable } from '@nestjs/common';
import { MetricsRegistry } from '@platform/service-kit';
import type { Counter } from 'prom-client';
import { QUEUE_OPTIONS, type QueueModuleOptions } from './queue.options';

/** What every queue worker of a process shares: its settings and its outcome counters. */
@Injectable()
export class WorkerRuntime {
  readonly concurrency: number;
  /**
   * How long a closing worker lets running jobs finish. A quarter of the shutdown budget stays
   * free for handing back unfinished jobs and closing connections before the process must exit.
   */
  readonly drainTimeoutMs: number;
  readonly completed: Counter<string>;
  readonly failed: Counter<string>;
  readonly retried: Counter<string>;

  constructor(@Inject(QUEUE_OPTIONS) options: QueueModuleOptions, metrics: MetricsRegistry) {
    this.concurrency = options.concurrency ?? 1;
    this.drainTimeoutMs = Math.floor((options.shutdownTimeoutMs ?? 20_000) * 0.75);
    const labels = ['queue', 'job'];
    this.completed = metrics.counter('jobs_completed_total', 'Jobs that finished successfully', labels);
    this.failed = metrics.counter('jobs_failed_total', 'Jobs that failed for good: attempts used up or a permanent error', labels);
    this.retried = metrics.counter('jobs_retried_total', 'Failed attempts that will be retried', labels);
  }
}
