import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { buildApp, createTestKey, http, pollUntil, startBuiltApp, startWebhookReceiver, testAppEnv, WEBHOOK_TEST_ENV, type WebhookReceiver } from '@platform/testing';
import { WebhookEvents } from '@platform/webhooks';
import { Webhook } from 'standardwebhooks';
import type { ChildProcess } from 'node:child_process';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

/** webhook-dispatcher as deployed: the built bundle in a process of its own. */
async function startDispatcher(): Promise<ChildProcess> {
  await buildApp('webhook-dispatcher');
  const dispatcher = startBuiltApp('webhook-dispatcher', testAppEnv({ ...WEBHOOK_TEST_ENV, LOG_LEVEL: 'info' }));
  await dispatcher.listening;
  return dispatcher.child;
}

describe('webhook deliveries over HTTP, delivered by a running webhook-dispatcher', () => {
  let app: NestFastifyApplication;
  let url: string;
  let dispatcher: ChildProcess;
  let hook: WebhookReceiver;
  let failing = true;

  beforeAll(async () => {
    [app, dispatcher, hook] = await Promise.all([
      serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv(WEBHOOK_TEST_ENV))),
      startDispatcher(),
      startWebhookReceiver((request) => ({ status: failing ? 500 : 200, body: request.path === '/test-events' ? Buffer.from('{"received":true}') : undefined })),
    ]);
    url = await app.getUrl();
  });
  afterAll(async () => {
    const exited = new Promise((resolve) => dispatcher.once('exit', resolve));
    dispatcher.kill('SIGTERM');
    await Promise.all([app.close(), hook.stop()]);
    expect(await exited).toBe(0);
  });

  it('lists all six attempts of a failing delivery page by page, and redelivers the event as new attempts', async () => {
    const { plainKey, accountId } = await createTestKey({ scopes: ['translate', 'manage'], rateLimitPerMinute: 1000 });
    const call = (method: string, route: string) => http(url, method, `/api/v1/webhook${route}`, { token: plainKey });
    expect((await http(url, 'PUT', '/api/v1/webhook', { token: plainKey, json: { url: `${hook.url}/hooks` } })).status).toBe(201);
    const eventId = await app.get(DataSource).transaction((manager) =>
      app.get(WebhookEvents).publish(manager, { accountId, sandbox: true, type: 'batch.completed', data: { job: 'job_e2e', status: 'done' } }),
    );

    const listed = await pollUntil(
      () => call('GET', '/deliveries'),
      (res) => res.body.deliveries.length === 6 && res.body.deliveries[0].final,
      { timeoutMs: 20_000, what: 'six attempts' },
    );
    expect(listed.body.deliveries.map((d: { attempt: number }) => d.attempt)).toEqual([6, 5, 4, 3, 2, 1]);
    for (const delivery of listed.body.deliveries) {
      expect(delivery).toEqual({
        id: expect.any(String),
        event_id: eventId,
        event_type: 'batch.completed',
        attempt: expect.any(Number),
        number: delivery.attempt,
        url: `${hook.url}/hooks`,
        status_code: 500,
        success: false,
        error: null,
        duration_ms: expect.any(Number),
        created_at: expect.any(String),
        next_attempt_at: delivery.attempt < 6 ? expect.any(String) : null,
        final: delivery.attempt === 6,
      });
    }

    const first = await call('GET', '/deliveries?limit=4');
    expect(first.body.deliveries.map((d: { attempt: number }) => d.attempt)).toEqual([6, 5, 4, 3]);
    expect(first.body.next_before).toBe(first.body.deliveries[3].id);
    const second = await call('GET', `/deliveries?limit=4&before=${first.body.next_before}`);
    expect(second.body.deliveries.map((d: { attempt: number }) => d.attempt)).toEqual([2, 1]);
    expect(second.body.next_before).toBeNull();

    failing = false;
    const redelivered = await call('POST', `/deliveries/${listed.body.deliveries[5].id}/redeliver`);
    expect(redelivered.status).toBe(202);
    expect(redelivered.body).toEqual({ ok: true, event_id: eventId });
    const after = await pollUntil(() => call('GET', '/deliveries'), (res) => res.body.deliveries.length === 7, { what: 'the redelivery' });
    // A new series starts at attempt 1; among the event's attempts it is the seventh.
    expect(after.body.deliveries[0]).toMatchObject({ event_id: eventId, attempt: 1, number: 7, status_code: 200, success: true, final: true });
    expect(hook.received.filter((r) => r.headers['webhook-id'] === eventId)).toHaveLength(7);

    // Another account sees none of it.
    const stranger = await createTestKey({ scopes: ['translate', 'manage'] });
    expect((await http(url, 'GET', '/api/v1/webhook/deliveries', { token: stranger.plainKey })).body.deliveries).toEqual([]);
    const foreign = await http(url, 'POST', `/api/v1/webhook/deliveries/${after.body.deliveries[0].id}/redeliver`, { token: stranger.plainKey });
    expect(foreign.status).toBe(404);
  });

  it('sends a signed test event on request, logged under its type, and filters the log by type', async () => {
    const { plainKey, accountId } = await createTestKey({ scopes: ['translate', 'manage'], rateLimitPerMinute: 1000 });
    const call = (method: string, route: string) => http(url, method, `/api/v1/webhook${route}`, { token: plainKey });
    expect((await call('POST', '/test')).body).toEqual({ error: 'not_found', message: expect.stringMatching(/No sandbox webhook endpoint/) });

    failing = false;
    const registered = await http(url, 'PUT', '/api/v1/webhook', { token: plainKey, json: { url: `${hook.url}/test-events` } });
    await app.get(DataSource).transaction((manager) => app.get(WebhookEvents).publish(manager, { accountId, sandbox: true, type: 'batch.completed', data: { job: 'job_t' } }));
    const sent = await call('POST', '/test');
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({ ok: true, event_id: expect.stringMatching(/^msg_/) });

    const received = (await pollUntil(() => hook.received.find((r) => r.headers['webhook-id'] === sent.body.event_id), Boolean, { what: 'the test event' }))!;
    expect(JSON.parse(received.body)).toEqual({ type: 'webhook.test', timestamp: expect.any(String), data: { message: expect.stringContaining('test event') } });
    new Webhook(registered.body.webhook.secret).verify(received.body, received.headers as Record<string, string>);

    const tests = await pollUntil(() => call('GET', '/deliveries?type=webhook.test'), (res) => res.body.deliveries.length === 1, { what: 'the logged test event' });
    expect(tests.body.deliveries[0]).toMatchObject({ event_id: sent.body.event_id, event_type: 'webhook.test', number: 1, status_code: 200 });
    const detail = await call('GET', `/deliveries/${tests.body.deliveries[0].id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.delivery).toMatchObject({ id: tests.body.deliveries[0].id, event_type: 'webhook.test', response: { status_code: 200, body_excerpt: '{"received":true}' } });
    const sentRequest = detail.body.delivery.request;
    expect(sentRequest.headers).toMatchObject({ 'webhook-id': sent.body.event_id, 'content-type': 'application/json', 'user-agent': expect.stringMatching(/webhooks/) });
    // What the log shows is what was signed: the receiver's check passes on it.
    new Webhook(registered.body.webhook.secret).verify(JSON.stringify(sentRequest.body), sentRequest.headers);
    expect(sentRequest.body).toEqual(JSON.parse(received.body));
    const stranger = await createTestKey({ scopes: ['translate', 'manage'] });
    for (const [token, id] of [[stranger.plainKey, tests.body.deliveries[0].id], [plainKey, 'not-an-id'], [plainKey, '00000000-0000-4000-8000-000000000000']]) {
      expect((await http(url, 'GET', `/api/v1/webhook/deliveries/${id}`, { token })).body.error).toBe('not_found');
    }

    const batches = await pollUntil(() => call('GET', '/deliveries?type=batch.completed'), (res) => res.body.deliveries.length === 1, { what: 'the batch event' });
    expect(batches.body.deliveries[0].event_type).toBe('batch.completed');
    expect((await call('GET', '/deliveries')).body.deliveries).toHaveLength(2);
    for (const bad of ['batch.failed', '', 'WEBHOOK.TEST']) {
      const res = await call('GET', `/deliveries?type=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(422);
      expect(res.body.error).toBe('unsupported_language');
    }
  });

  it('refuses to redeliver to a disabled endpoint', async () => {
    const { plainKey, accountId } = await createTestKey({ scopes: ['translate', 'manage'] });
    const gone = await startWebhookReceiver(() => ({ status: 410 }));
    try {
      await http(url, 'PUT', '/api/v1/webhook', { token: plainKey, json: { url: gone.url } });
      await app.get(DataSource).transaction((manager) => app.get(WebhookEvents).publish(manager, { accountId, sandbox: true, type: 'batch.completed', data: {} }));
      const listed = await pollUntil(
        () => http(url, 'GET', '/api/v1/webhook/deliveries', { token: plainKey }),
        (res) => res.body.deliveries.length === 1,
        { what: 'the 410 attempt' },
      );
      expect((await http(url, 'GET', '/api/v1/webhook', { token: plainKey })).body.webhook).toMatchObject({ disabled: true, disabled_reason: 'The receiver answered 410 Gone' });

      const res = await http(url, 'POST', `/api/v1/webhook/deliveries/${listed.body.deliveries[0].id}/redeliver`, { token: plainKey });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: 'unsupported_language',
        message: 'The webhook endpoint is disabled (The receiver answered 410 Gone); register its URL again with PUT /api/v1/webhook',
      });
      const test = await http(url, 'POST', '/api/v1/webhook/test', { token: plainKey });
      expect([test.status, test.body.error]).toEqual([422, 'unsupported_language']);
    } finally {
      await gone.stop();
    }
  });
});
