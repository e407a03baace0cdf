import { QueueName } from '@platform/contracts';

/**
 * Makes one attempt to deliver a webhook event. Publishing and redelivery queue it with the event
 * id alone, which starts a series of attempts named after the job; each failed attempt queues the
 * next one of the same series, with its number, after the delay of the retry schedule. An attempt
 * the dispatcher holds back (its endpoint busy or its circuit open) is queued again unmade, with
 * the same series and number.
 */
export class DeliverWebhookJob {
  static readonly queue = QueueName.Webhooks;
  /**
   * Bull retries cover our own failures only (the database away while recording an attempt);
   * what the receiver answers is recorded and scheduled by the dispatcher itself.
   */
  static readonly retry = { attempts: 10, backoffMs: 5_000, maxBackoffMs: 5 * 60_000 };

  constructor(
    readonly eventId: string,
    readonly series?: string,
    readonly attempt?: number,
  ) {}
}
