import { BullModule, getQueueToken } from '@nestjs/bull';
import { DynamicModule, Module } from '@nestjs/common';
import type { Queue } from 'bull';
import { exponentialJitter, JITTER_BACKOFF } from './job-type';
import { QueueMonitor } from './queue-monitor.service';
import { QUEUE_OPTIONS, type QueueModuleOptions } from './queue.options';
import { WorkerRuntime } from './worker-runtime.service';
import type { WorkerConfig } from './worker.config';

/**
 * Bull queues on REDIS_URL. `forRoot` once per app; `registerQueue` for each queue the app
 * produces to or consumes, which also puts the queue on /health and /metrics.
 */
@Module({})
export class QueueModule {
  static forRoot(options: QueueModuleOptions): DynamicModule {
    return {
      module: QueueModule,
      global: true,
      imports: [
        BullModule.forRoot({
          url: options.redisUrl,
          // Consumers compute retry delays, so every queue knows the strategy jobs ask for.
          settings: { backoffStrategies: { [JITTER_BACKOFF]: exponentialJitter }, ...options.locks },
        }),
      ],
      providers: [{ provide: QUEUE_OPTIONS, useValue: options }, QueueMonitor, WorkerRuntime],
      exports: [QueueMonitor, WorkerRuntime],
    };
  }

  /** `forRoot` for a process that consumes queues, with its concurrency, shutdown budget and locks. */
  static forWorker(config: WorkerConfig): DynamicModule {
    return QueueModule.forRoot({
      redisUrl: config.REDIS_URL,
      commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
      concurrency: config.WORKER_CONCURRENCY,
      shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
      locks: {
        lockDuration: config.QUEUE_LOCK_DURATION_MS,
        lockRenewTime: config.QUEUE_LOCK_RENEW_MS ?? Math.floor(config.QUEUE_LOCK_DURATION_MS / 4),
        stalledInterval: config.QUEUE_STALLED_INTERVAL_MS,
        maxStalledCount: config.QUEUE_MAX_STALLED_COUNT,
      },
    });
  }

  static registerQueue(...names: string[]): DynamicModule {
    const queues = BullModule.registerQueue(...names.map((name) => ({ name })));
    return {
      module: QueueModule,
      imports: [queues],
      // Nothing injects these: creating them hands each queue to the monitor.
      providers: names.map((name) => ({
        provide: `queue-monitor:${name}`,
        useFactory: (monitor: QueueMonitor, queue: Queue) => monitor.watch(queue),
        inject: [QueueMonitor, getQueueToken(name)],
      })),
      exports: [queues],
    };
  }
}
