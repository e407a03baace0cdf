import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { WebhookEvent } from '@platform/webhooks';
import { Repository } from 'typeorm';

/** Events carry translated content, which is kept no longer than 30 days; their attempts go with them. */
export const WEBHOOK_RETENTION_DAYS = 30;
const SWEEP_EVERY_MS = 3600_000;

@Injectable()
export class WebhookRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WebhookRetention');
  private timer?: NodeJS.Timeout;

  constructor(@InjectRepository(WebhookEvent) private readonly events: Repository<WebhookEvent>) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), SWEEP_EVERY_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Replicas may sweep at the same time: deleting twice deletes once. */
  async sweep(): Promise<number> {
    try {
      const { affected } = await this.events
        .createQueryBuilder()
        .delete()
        .where(`created_at < now() - make_interval(days => :days)`, { days: WEBHOOK_RETENTION_DAYS })
        .execute();
      return affected ?? 0;
    } catch (error) {
      this.logger.warn({ msg: 'webhook retention sweep failed', err: String(error) });
      return 0;
    }
  }
}
