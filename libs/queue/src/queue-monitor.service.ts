import { Inject, Injectable, Logger } from '@nestjs/common';
import { HealthRegistry, MetricsRegistry, waitUntilReady } from '@platform/service-kit';
import type { Job, Queue } from 'bull';
import type { Gauge } from 'prom-client';
import { QUEUE_OPTIONS, type QueueModuleOptions } from './queue.options';

const STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/**
 * Watches the queues a process registers: their Redis connection is a /health check, and their
 * job counts and the age of their oldest waiting job are gauges, read from Redis when Prometheus
 * scrapes. It also gives each queue's command connection its deadline.
 */
@Injectable()
export class QueueMonitor {
  private readonly logger = new Logger('Queue');
  private readonly queues: Queue[] = [];

  constructor(
    private readonly health: HealthRegistry,
    metrics: MetricsRegistry,
    @Inject(QUEUE_OPTIONS) private readonly options: QueueModuleOptions,
  ) {
    metrics.gauge('queue_jobs', 'Jobs per queue and state, read from Redis on each scrape', ['queue', 'state'], (jobs) => this.collect(jobs, countJobs));
    metrics.gauge(
      'queue_oldest_waiting_job_age_seconds',
      'How long the job that waited longest in the queue has been due (0 with none waiting), read from Redis on each scrape',
      ['queue'],
      (age) => this.collect(age, oldestWaitingAge),
    );
  }

  watch(queue: Queue): Queue {
    if (this.queues.length === 0) {
      this.health.register('redis', () => Promise.all(this.queues.map(ping)));
    }
    this.queues.push(queue);
    // Bull's options reach all three of its connections, the one blocked waiting for jobs among
    // them, which a deadline would fail every time the queue is idle. ioredis reads the option
    // with each command, so only the command connection gets it, here.
    queue.client.options.commandTimeout = this.options.commandTimeoutMs;
    // Bull re-emits every failed reconnect of its three connections; one line per distinct
    // problem is enough, /health reports the state.
    let lastError: string | undefined;
    queue.on('error', (error: Error) => {
      if (error.message === lastError) return;
      lastError = error.message;
      this.logger.warn({ msg: 'queue connection error', queue: queue.name, err: error.message });
    });
    queue.client.on('ready', () => (lastError = undefined));
    return queue;
  }

  /** A queue whose Redis is away exports no sample rather than a stale one. */
  private async collect(gauge: Gauge<string>, read: (queue: Queue, gauge: Gauge<string>) => Promise<void>): Promise<void> {
    await Promise.all(
      this.queues.map(async (queue) => {
        if (queue.client.status !== 'ready') return;
        // Redis going away during the scrape leaves the queue out; /health says so.
        await read(queue, gauge).catch(() => undefined);
      }),
    );
  }
}

async function countJobs(queue: Queue, jobs: Gauge<string>): Promise<void> {
  const counts = await queue.getJobCounts();
  for (const state of STATES) jobs.set({ queue: queue.name, state }, counts[state]);
}

/**
 * Bull takes waiting jobs from the far end of its list, so the oldest is the one there. A job
 * queued with a delay (a postponed delivery) is due from the end of its delay; a job waiting for
 * its next attempt counts from when it was first queued.
 */
async function oldestWaitingAge(queue: Queue, age: Gauge<string>): Promise<void> {
  const [oldest] = (await queue.getWaiting(0, 0)) as (Job | null)[];
  const dueSince = oldest ? oldest.timestamp + (oldest.opts.delay ?? 0) : Date.now();
  age.set({ queue: queue.name }, Math.max(0, Date.now() - dueSince) / 1000);
}

async function ping(queue: Queue): Promise<void> {
  // Bull's connection holds commands back while Redis is away: give a connection that is being
  // established a moment (a fresh start), otherwise answer at once.
  if (!(await waitUntilReady(queue.client, 1000))) throw new Error(`queue ${queue.name}: Redis connection is ${queue.client.status}`);
  await queue.client.ping();
}
