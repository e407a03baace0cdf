import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { BatchProgress } from '@platform/batches';

export const BATCH_RETENTION_OPTIONS = Symbol('BATCH_RETENTION_OPTIONS');

export interface BatchRetentionOptions {
  intervalMs: number;
}

/**
 * Deletes finished jobs (and their texts) 30 days after completion. Every replica sweeps; a
 * job deleted by one is simply not found by the others.
 */
@Injectable()
export class BatchRetention implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('BatchRetention');
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<void>;

  constructor(
    @Inject(BATCH_RETENTION_OPTIONS) private readonly options: BatchRetentionOptions,
    private readonly progress: BatchProgress,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep().finally(() => (this.sweeping = undefined));
    }, this.options.intervalMs);
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  private async sweep(): Promise<void> {
    try {
      const deleted = await this.progress.deleteExpired();
      if (deleted > 0) this.logger.log({ msg: 'expired batch jobs deleted', count: deleted });
    } catch (error) {
      this.logger.warn({ msg: 'could not delete expired batch jobs', err: String(error) });
    }
  }
}
