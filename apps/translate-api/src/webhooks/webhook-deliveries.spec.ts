import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { buildApp, createTestKey, http, pollUntil, startBuiltApp, startWebhookReceiver, testAppEnv, WEBHOOK_TEST_ENV, type WebhookReceiver } from '@platform/testing';
import { WebhookEvents } from '@platform/webhooks';
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
      startWebhookReceiver(() => ({ status: failing ? 500 : 200 })),
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
        attempt: expect.any(Number),
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
    expect(after.body.deliveries[0]).toMatchObject({ event_id: eventId, attempt: 1, status_code: 200, success: true, final: true });
    expect(hook.received.filter((r) => r.headers['webhook-id'] === eventId)).toHaveLength(7);

    // Another account sees none of it.
    const stranger = await createTestKey({ scopes: ['translate', 'manage'] });
    expect((await http(url, 'GET', '/api/v1/webhook/deliveries', { token: stranger.plainKey })).body.deliveries).toEqual([]);
    const foreign = await http(url, 'POST', `/api/v1/webhook/deliveries/${after.body.deliveries[0].id}/redeliver`, { token: stranger.plainKey });
    expect(foreign.status).toBe(404);
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
    } finally {
      await gone.stop();
    }
  });
});
