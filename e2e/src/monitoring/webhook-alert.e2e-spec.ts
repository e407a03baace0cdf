import { pollUntil, startWebhookReceiver, type WebhookReceiver } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stack } from '../stack.config';
import { expectAcceptedJob, SENTENCE, translationApi } from '../translation.client';
import { alertTestKey } from './alert-account';
import { ALERT_TIMEOUT_MS, alertBecomes, alertNow, phases, withoutPrometheus } from './prometheus.client';

const ALERT = 'WebhookEndpointFailing';
const LOOPBACK = ['127.0.0.1', '::1', 'localhost'];
const receiverHost = LOOPBACK.includes(stack.webhookHost) ? stack.webhookHost : '0.0.0.0';

/**
 * WebhookEndpointFailing counts endpoints whose circuit is open, so it resolves once the
 * receiver answers a probe again. (WebhookDeliveriesExhausted, the other delivery alert, counts
 * events given up within 30 minutes: it stays firing that long by design, whatever the receiver.)
 */
describe.skipIf(withoutPrometheus)(`${ALERT} while a customer's webhook receiver is down`, () => {
  let key: string;
  let receiver: WebhookReceiver;
  let port: number;

  beforeAll(async () => {
    key = await alertTestKey('webhook-alert', '--manage');
    receiver = await startWebhookReceiver(undefined, { host: receiverHost });
    port = Number(new URL(receiver.url).port);
    const host = stack.webhookHost.includes(':') ? `[${stack.webhookHost}]` : stack.webhookHost;
    const res = await translationApi('PUT', '/webhook', key, { json: { url: `http://${host}:${port}/hooks` } });
    expect(res.status, res.text).toBe(201);
  });
  afterAll(() => receiver?.stop());

  const submitBatch = async () => expectAcceptedJob(await translationApi('POST', '/batches', key, { json: { source: 'en', target: 'es', texts: [SENTENCE] } }));

  it('goes to firing once its deliveries fail, and resolves once the receiver answers again', { timeout: 4 * ALERT_TIMEOUT_MS }, async () => {
    expect(await alertNow(ALERT), `${ALERT} is active before this test: another endpoint's circuit is open`).toBeUndefined();

    const took = phases();
    await receiver.stop();
    await submitBatch();
    // Every attempt is refused: WEBHOOK_CIRCUIT_FAILURES of them open the endpoint's circuit.
    const firing = await alertBecomes(ALERT, 'firing');
    took('firing');
    expect(firing).toMatchObject({ labels: { severity: 'warning' }, annotations: { runbook_url: expect.stringMatching(/#webhookendpointfailing$/) } });

    receiver = await startWebhookReceiver(undefined, { host: receiverHost, port });
    // Whichever attempt is the probe once the cool-down ends, this event's is one to come.
    const job = await submitBatch();
    await alertBecomes(ALERT, undefined);
    took('resolved');
    await pollUntil(
      () => receiver.received.some((request) => JSON.parse(request.body).data?.job === job),
      Boolean,
      { timeoutMs: stack.jobTimeoutMs, intervalMs: 250, what: `the webhook of ${job} once the receiver is back` },
    );
    console.log(`[${ALERT}] ${took('event delivered')}`);
  });
});
