import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestKey, pollUntil, startWebhookReceiver, type ReceivedWebhook, type ReceiverAnswer, type WebhookReceiver } from '@platform/testing';
import { WebhookDelivery, WebhookEndpointService, WebhookEvents } from '@platform/webhooks';
import { DataSource } from 'typeorm';

type Answer = (request: ReceivedWebhook, index: number) => ReceiverAnswer | Promise<ReceiverAnswer>;

/** The live world of an account; tests that are not about modes use it. */
export const live = (accountId: string) => ({ accountId, sandbox: false });

/**
 * Customers of a running webhook-dispatcher: receivers, accounts subscribed to them (in the
 * dispatcher's database, `databaseUrl()` unless the shared test one), events published to them
 * and the attempts recorded.
 */
export function deliveryHarness(app: () => NestFastifyApplication, databaseUrl: () => string | undefined = () => undefined) {
  const receivers: WebhookReceiver[] = [];
  const dataSource = () => app().get(DataSource);

  async function receiver(answer?: Answer) {
    const started = await startWebhookReceiver(answer);
    receivers.push(started);
    return started;
  }

  /** A new account whose endpoint is a receiver answering as told. */
  async function subscriber(answer?: Answer) {
    const hook = await receiver(answer);
    const { accountId } = await createTestKey({ databaseUrl: databaseUrl() });
    const { endpoint } = await app().get(WebhookEndpointService).register(live(accountId), `${hook.url}/hooks`);
    return { accountId, hook, secret: endpoint.secret };
  }

  const publish = (accountId: string, data: object = { job: 'job_test', status: 'done' }, sandbox = false) =>
    dataSource().transaction((manager) => app().get(WebhookEvents).publish(manager, { accountId, sandbox, type: 'batch.completed', data }));

  const attempts = (accountId: string) => dataSource().getRepository(WebhookDelivery).find({ where: { accountId }, order: { createdAt: 'ASC', attempt: 'ASC' } });

  /** The attempts once `count` are recorded and the last one ended its series. */
  const settled = (accountId: string, count: number) =>
    pollUntil(
      () => attempts(accountId),
      (rows) => rows.length >= count && rows[rows.length - 1].final,
      { timeoutMs: 20_000, what: `${count} attempts` },
    );

  const stopReceivers = () => Promise.all(receivers.map((r) => r.stop()));

  return { receiver, subscriber, publish, attempts, settled, stopReceivers };
}
