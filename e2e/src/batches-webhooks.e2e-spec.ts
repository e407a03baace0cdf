import { pollUntil, startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '@platform/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { stack } from './stack.config';
import { expectAcceptedJob, finishedJob, SENTENCE, translate, translationApi } from './translation.client';

const { webhookKey: key } = inject('credentials');

const LOOPBACK = ['127.0.0.1', '::1', 'localhost'];

/** The event for `job`, once the receiver has it. */
function eventFor(receiver: WebhookReceiver, job: string, after = 0): Promise<ReceivedWebhook> {
  return pollUntil(
    () => receiver.received.slice(after).find((request) => JSON.parse(request.body).data?.job === job),
    (request) => request !== undefined,
    { timeoutMs: stack.jobTimeoutMs, intervalMs: 100, what: `the webhook of ${job}` },
  ) as Promise<ReceivedWebhook>;
}

const signatureHeaders = (request: ReceivedWebhook) => ({
  'webhook-id': String(request.headers['webhook-id']),
  'webhook-timestamp': String(request.headers['webhook-timestamp']),
  'webhook-signature': String(request.headers['webhook-signature']),
});

describe('translate-api: batches, review in the sandbox and signed webhooks', () => {
  let receiver: WebhookReceiver;
  let webhookUrl: string;
  let secret: string;
  let batchJob: string;

  beforeAll(async () => {
    // A stack outside this machine's loopback (containers) reaches the receiver on every interface.
    receiver = await startWebhookReceiver(undefined, { host: LOOPBACK.includes(stack.webhookHost) ? stack.webhookHost : '0.0.0.0' });
    const host = stack.webhookHost.includes(':') ? `[${stack.webhookHost}]` : stack.webhookHost;
    webhookUrl = `http://${host}:${new URL(receiver.url).port}/hooks`;
  });
  afterAll(() => receiver?.stop());

  it('registers the webhook endpoint and shows its secret only then', async () => {
    const res = await translationApi('PUT', '/webhook', key, { json: { url: webhookUrl } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      ok: true,
      webhook: { url: webhookUrl, disabled: false, disabled_reason: null, created_at: expect.any(String), updated_at: expect.any(String), secret: expect.stringMatching(/^whsec_/) },
    });
    secret = res.body.webhook.secret;

    const shown = await translationApi('GET', '/webhook', key);
    expect(shown.status).toBe(200);
    expect(shown.body.webhook).toMatchObject({ url: webhookUrl, disabled: false });
    expect(shown.body.webhook).not.toHaveProperty('secret');
  });

  it('translates a batch and reports it done', async () => {
    batchJob = expectAcceptedJob(await translationApi('POST', '/batches', key, { json: { source: 'en', target: 'es', texts: [SENTENCE, 'The dog is in the garden.'] } }));
    const job = await finishedJob(key, batchJob);
    expect(job).toMatchObject({
      ok: true,
      job: batchJob,
      target: 'es',
      tier: 'basic',
      progress: { done: 2, total: 2 },
      words: 14,
      cost_cents: 1,
      completed_at: expect.any(String),
      expires_at: expect.any(String),
    });
    expect(job.results).toEqual([
      { index: 0, translation: expect.stringMatching(/gato.*sofá/), detected_source: 'en', words: 8, origin: 'engine' },
      { index: 1, translation: expect.stringContaining('perro'), detected_source: 'en', words: 6, origin: 'engine' },
    ]);
  });

  it('delivers batch.completed signed with the endpoint secret', async () => {
    const request = await eventFor(receiver, batchJob);
    expect(request.path).toBe('/hooks');
    const payload = new Webhook(secret).verify(request.body, signatureHeaders(request));
    const job = (await translationApi('GET', `/batches/${batchJob}`, key)).body;
    expect(payload).toEqual({
      type: 'batch.completed',
      timestamp: expect.any(String),
      data: { job: batchJob, status: 'done', target: 'es', tier: 'basic', words: 14, cost_cents: 1, results: job.results },
    });
  });

  it('lists the delivery attempt and redelivers it, signed with a rotated secret', async () => {
    const deliveries = await pollUntil(
      () => translationApi('GET', '/webhook/deliveries?limit=10', key),
      (res) => res.body.deliveries?.length > 0,
      { timeoutMs: stack.jobTimeoutMs, what: 'a recorded delivery' },
    );
    expect(deliveries.status).toBe(200);
    const [attempt] = deliveries.body.deliveries;
    expect(attempt).toMatchObject({ event_id: expect.stringMatching(/^msg_/), attempt: 1, url: webhookUrl, status_code: 204, success: true, final: true });
    expect(deliveries.body.next_before).toBeNull();

    const rotated = await translationApi('POST', '/webhook/rotate-secret', key);
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.webhook.secret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);

    const before = receiver.received.length;
    const redelivery = await translationApi('POST', `/webhook/deliveries/${attempt.id}/redeliver`, key);
    expect(redelivery.status).toBe(202);
    expect(redelivery.body).toEqual({ ok: true, event_id: attempt.event_id });
    const again = await eventFor(receiver, batchJob, before);
    expect(again.headers['webhook-id']).toBe(attempt.event_id);
    expect(() => new Webhook(secret).verify(again.body, signatureHeaders(again))).toThrow();
    expect(new Webhook(newSecret).verify(again.body, signatureHeaders(again))).toMatchObject({ data: { job: batchJob } });
  });

  it('answers tier review with a job that the sandbox review completes', async () => {
    const job = expectAcceptedJob(await translate(key, { source: 'en', target: 'es', tier: 'review', texts: [SENTENCE] }));
    const done = await finishedJob(key, job);
    expect(done).toMatchObject({ tier: 'review', progress: { done: 1, total: 1 }, results: [{ index: 0, translation: expect.stringContaining('gato') }] });
    const event = await eventFor(receiver, job);
    expect(JSON.parse(event.body).data).toMatchObject({ job, status: 'done', tier: 'review' });
  });

  it('removes the webhook endpoint', async () => {
    const res = await translationApi('DELETE', '/webhook', key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect((await translationApi('GET', '/webhook', key)).status).toBe(404);
  });
});
