import { Inject, Injectable, Logger } from '@nestjs/common';
import { HealthRegistry, MetricsRegistry, waitUntilReady } from '@platform/service-kit';
import type { Queue } from 'bull';
import { Gauge } from 'prom-client';
import { QUEUE_OPTIONS, type QueueModuleOptions } from './queue.options';

const STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/**
 * Watches the queues a process registers: their Redis connection is a /health check and their
 * job counts are a gauge, read from Redis when Prometheus scrapes. It also gives each queue's
 * command connection its deadline.
 */
@Injectable()
export class QueueMonitor {
  private readonly logger = new Logger('Queue');
  private readonly queues: Queue[] = [];
  private readonly jobs: Gauge<string>;

  constructor(
    private readonly health: HealthRegistry,
    metrics: MetricsRegistry,
    @Inject(QUEUE_OPTIONS) private readonly options: QueueModuleOptions,
  ) {
    this.jobs = new Gauge({
      name: 'queue_jobs',
      help: 'Jobs per queue and state, read from Redis on each scrape',
      labelNames: ['queue', 'state'],
      registers: [metrics.registry],
      collect: () => this.collect(),
    });
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

  private async collect(): Promise<void> {
    // A queue whose Redis is away exports no sample rather than a stale one.
    this.jobs.reset();
    await Promise.all(
      this.queues.map(async (queue) => {
        if (queue.client.status !== 'ready') return;
        try {
          const counts = await queue.getJobCounts();
          for (const state of STATES) this.jobs.set({ queue: queue.name, state }, counts[state]);
        } catch {
          // Redis went away during the scrape; /health says so.
        }
      }),
    );
  }
}

async function ping(queue: Queue): Promise<void> {
  // Bull's connection holds commands back while Redis is away: give a connection that is being
  // established a moment (a fresh start), otherwise answer at once.
  if (!(await waitUntilReady(queue.client, 1000))) throw new Error(`queue ${queue.name}: Redis connection is ${queue.client.status}`);
  await queue.client.ping();
}
