import { InjectQueue } from '@nestjs/bull';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { QueueName } from '@platform/contracts';
import { enqueueVariant, ImageObjectStore, type PendingVariant } from '@platform/image-conversion';
import type { Queue } from 'bull';
import { setTimeout as sleep } from 'node:timers/promises';

export const VARIANT_SWEEP_OPTIONS = Symbol('VARIANT_SWEEP_OPTIONS');

export interface VariantSweepOptions {
  /** How often the sweep runs, and how old a pending source must be before it is queued. */
  intervalMs: number;
}

/** How long shutdown waits for a running sweep; one stuck on Redis ends when the queue closes. */
const SHUTDOWN_WAIT_MS = 3000;

/**
 * The safety net of variant jobs. image-api stores a pending source before it queues its job and
 * does not wait for Redis, so a source may have no job at all. Every replica sweeps; a job Bull
 * still holds is never queued twice (enqueueVariant).
 */
@Injectable()
export class PendingVariantSweep implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('PendingVariantSweep');
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<void>;
  private stopping = false;

  constructor(
    @Inject(VARIANT_SWEEP_OPTIONS) private readonly options: VariantSweepOptions,
    @InjectQueue(QueueName.ImageVariants) private readonly queue: Queue,
    private readonly store: ImageObjectStore,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep().finally(() => (this.sweeping = undefined));
    }, this.options.intervalMs).unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    await Promise.race([this.sweeping, sleep(SHUTDOWN_WAIT_MS, undefined, { ref: false })]);
  }

  private async sweep(): Promise<void> {
    // Bull would hold the commands back until Redis returns; the next sweep tries again instead.
    if (this.queue.client.status !== 'ready') {
      this.logger.warn({ msg: 'pending variants not swept: Redis is unavailable', status: this.queue.client.status });
      return;
    }
    try {
      let queued = 0;
      for await (const pending of this.store.pendingBefore(new Date(Date.now() - this.options.intervalMs))) {
        if (this.stopping) break;
        if (await this.requeue(pending)) queued += 1;
      }
      if (queued > 0) this.logger.log({ msg: 'pending variants queued', count: queued });
    } catch (error) {
      this.logger.warn({ msg: 'could not sweep pending variants', err: error instanceof Error ? error.message : String(error) });
    }
  }

  /**
   * Queues the variant unless Bull still holds its job. A job that used up its attempts (storage
   * was away for longer than its backoff) starts over: its source is still there, so the work is
   * not done, and Bull would otherwise keep its id taken for as long as it keeps failed jobs.
   */
  private async requeue(pending: PendingVariant): Promise<boolean> {
    const existing = await this.queue.getJob(pending.key);
    if (existing && !(await existing.isFailed())) return false;
    await existing?.remove();
    await enqueueVariant(this.queue, pending);
    return true;
  }
}
