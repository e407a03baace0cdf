import { InjectQueue } from '@nestjs/bull';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { QueueName } from '@platform/contracts';
import { enqueueVariant, ImageObjectStore, type PendingVariant } from '@platform/image-conversion';
import type { Queue } from 'bull';
import { setTimeout as sleep } from 'node:timers/promises';
import { VariantFailures } from './variant-failures.service';

export const VARIANT_SWEEP_OPTIONS = Symbol('VARIANT_SWEEP_OPTIONS');

export interface VariantSweepOptions {
  /** How often the sweep runs, and how old a pending source must be before it is queued. */
  intervalMs: number;
  /** Rounds of attempts (a job that used up its attempts) after which a variant is given up. */
  maxRounds: number;
}

/** How long shutdown waits for a running sweep; one stuck on Redis ends when the queue closes. */
const SHUTDOWN_WAIT_MS = 3000;

/**
 * The safety net of variant jobs. image-api stores a pending source before it queues its job and
 * does not wait for Redis, so a source may have no job at all. Every replica sweeps; a job Bull
 * still holds is never queued twice (enqueueVariant). A job that used up its attempts is started
 * over, up to VARIANT_MAX_ROUNDS rounds in all (VariantFailures); then the variant is given up,
 * its source kept for an operator, and the sweep leaves it alone.
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
    private readonly failures: VariantFailures,
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
      const sweptAt = new Date();
      const remaining: string[] = [];
      let queued = 0;
      for await (const pending of this.store.pendingBefore(new Date(sweptAt.getTime() - this.options.intervalMs))) {
        if (this.stopping) return;
        remaining.push(pending.key);
        if (await this.requeue(pending)) queued += 1;
      }
      if (queued > 0) this.logger.log({ msg: 'pending variants queued', count: queued });
      await this.failures.forgetMade(remaining, sweptAt);
    } catch (error) {
      this.logger.warn({ msg: 'could not sweep pending variants', err: error instanceof Error ? error.message : String(error) });
    }
  }

  /**
   * Queues the variant unless Bull still holds its job or it was given up. A job that used up its
   * attempts (storage was away for longer than its backoff) ends a round: the work is not done
   * while its source is there, so it starts over unless that was the last round.
   */
  private async requeue(pending: PendingVariant): Promise<boolean> {
    const existing = await this.queue.getJob(pending.key);
    if (existing && !(await existing.isFailed())) return false;
    if (existing) {
      const round = await this.failures.recordRound(pending, new Date(existing.finishedOn ?? Date.now()), existing.failedReason ?? 'unknown', this.options.maxRounds);
      // Bull would otherwise keep the id taken for as long as it keeps failed jobs.
      await existing.remove();
      if (round.state === 'failed') {
        this.logger.error({ msg: 'variant given up: its job failed every round; the source is kept', key: pending.key, rounds: round.rounds, err: existing.failedReason });
        return false;
      }
    } else if ((await this.failures.stateOf(pending.key)) === 'failed') {
      return false;
    }
    await enqueueVariant(this.queue, pending);
    return true;
  }
}
