import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { REVIEW_OPTIONS, ReviewTasks, type ReviewOptions } from '@platform/review';

/**
 * Sandbox keys' review-tier jobs are reviewed by nobody: their tasks are approved once they are
 * REVIEW_SANDBOX_DELAY_MS old. Which tasks are due is read from Postgres on every tick, so a
 * restarted worker picks up where the last one stopped; concurrent replicas lock per job.
 */
@Injectable()
export class ReviewSimulator implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('ReviewSimulator');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    @Inject(REVIEW_OPTIONS) private readonly options: ReviewOptions,
    private readonly review: ReviewTasks,
  ) {}

  onApplicationBootstrap(): void {
    const intervalMs = Math.min(1000, Math.max(100, Math.floor(this.options.sandboxDelayMs / 2)));
    this.timer = setInterval(() => {
      this.running ??= this.tick().finally(() => (this.running = undefined));
    }, intervalMs);
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private async tick(): Promise<void> {
    try {
      const completed = await this.review.approveSimulated();
      if (completed > 0) this.logger.log({ msg: 'sandbox review jobs approved', count: completed });
    } catch (error) {
      this.logger.warn({ msg: 'could not approve sandbox review tasks', err: String(error) });
    }
  }
}
