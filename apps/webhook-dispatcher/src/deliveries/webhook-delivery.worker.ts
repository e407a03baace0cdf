import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { QueueName } from '@platform/contracts';
import { ProcessJob, QueueWorker, WorkerRuntime } from '@platform/queue';
import { DeliverWebhookJob } from '@platform/webhooks';
import type { Job, Queue } from 'bull';
import { WebhookDeliveryService } from './webhook-delivery.service';

@Injectable()
export class WebhookDeliveryWorker extends QueueWorker {
  constructor(
    @InjectQueue(QueueName.Webhooks) queue: Queue,
    runtime: WorkerRuntime,
    private readonly deliveries: WebhookDeliveryService,
  ) {
    super(queue, runtime);
  }

  /** A job queued by publishing or redelivery starts a series named after itself. */
  @ProcessJob(DeliverWebhookJob)
  deliver(job: Job<DeliverWebhookJob>): Promise<string> {
    const { eventId, series, attempt } = job.data;
    return this.deliveries.attempt({ eventId, series: series ?? String(job.id), attempt: attempt ?? 1 }, String(job.id));
  }
}
