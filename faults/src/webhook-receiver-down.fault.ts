import { startWebhookReceiver, type WebhookReceiver } from '@platform/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { call, newTranslationKey, setWebhook, settledJob, sleep, submitBatch } from './platform.client';

const DOWN_MS = 120_000;
/** The stack's WEBHOOK_RETRY_SCHEDULE (5,10,20,40,80 s) has its last attempt about 155 s after the first. */
const DELIVERY_WAIT_MS = 120_000;

describe('the customer\'s webhook receiver down for 2 minutes', () => {
  let receiver: WebhookReceiver | undefined;
  afterAll(() => receiver?.stop());

  it('delivers the event once it is back, with the same webhook-id, every attempt in the delivery log', async () => {
    const key = await newTranslationKey('receiver-down', '--manage');
    // A port that was free a moment ago, closed: connections are refused until it listens again.
    const gone = await startWebhookReceiver();
    const port = Number(new URL(gone.url).port);
    await gone.stop();
    await setWebhook(key, `${gone.url}/hooks`);
    const downSince = Date.now();

    const submitted = await submitBatch(key, ['The cat sleeps.', 'The dog runs.']);
    expect(submitted.status, submitted.text).toBe(202);
    const job = submitted.body.job as string;
    expect((await settledJob(key, job, 60_000)).status).toBe('done');

    await sleep(DOWN_MS - (Date.now() - downSince));
    receiver = await startWebhookReceiver(() => ({ status: 204 }), { port });
    const backAt = Date.now();
    while (receiver.received.length === 0 && Date.now() - backAt < DELIVERY_WAIT_MS) await sleep(500);

    const delivered = receiver.received.filter((r) => JSON.parse(r.body).data?.job === job);
    expect(delivered.length, 'batch.completed delivered after the receiver came back').toBeGreaterThan(0);
    expect(new Set(delivered.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const eventId = delivered[0].headers['webhook-id'];

    const log = await call('translate-api', 'GET', '/api/v1/webhook/deliveries?limit=100', { token: key });
    expect(log.status, log.text).toBe(200);
    const attempts = (log.body.deliveries as { event_id: string; attempt: number; success: boolean; at?: string }[]).filter((d) => d.event_id === eventId).reverse();
    console.log(`[webhook-receiver-down] ${attempts.length} attempts: ${JSON.stringify(attempts.map((a) => ({ attempt: a.attempt, success: a.success })))}`);
    // Attempts at about 0, 5, 15, 35 and 75 s fall into the 2 minutes; each is in the log, then the success.
    expect(attempts.map((a) => a.attempt)).toEqual(attempts.map((_, i) => i + 1));
    expect(attempts.length).toBeGreaterThanOrEqual(5);
    expect(attempts.slice(0, -1).every((a) => !a.success)).toBe(true);
    expect(attempts.at(-1)!.success).toBe(true);
    expect(attempts.filter((a) => a.success)).toHaveLength(delivered.length);
  });
});
