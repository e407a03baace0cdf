import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig, MetricsRegistry } from '@platform/service-kit';
import { createTestKey, pollUntil, testAppEnv, WEBHOOK_TEST_ENV, type ReceivedWebhook } from '@platform/testing';
import { WebhookEndpoint, WebhookEndpointService } from '@platform/webhooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { serveWebhookDispatcher } from '../webhook-dispatcher.app';
import { deliveryHarness, live } from './delivery-harness.testing';
import { WebhookRetention } from './webhook-retention.service';

/** The test schedule retries after 1 s ± 10%. */
const MIN_GAP_MS = 850;

// Each test has an account and receiver of its own, so they run side by side.
describe.concurrent('webhook delivery (webhook-dispatcher with real receivers)', () => {
  let app: NestFastifyApplication;
  let endpoints: WebhookEndpointService;
  let dataSource: DataSource;
  const { receiver, subscriber, publish, attempts, settled, stopReceivers } = deliveryHarness(() => app);

  beforeAll(async () => {
    app = await serveWebhookDispatcher(loadConfig(WebhookDispatcherConfig, testAppEnv(WEBHOOK_TEST_ENV)));
    endpoints = app.get(WebhookEndpointService);
    dataSource = app.get(DataSource);
  });
  afterAll(async () => {
    await app.close();
    await stopReceivers();
  });

  const verify = (secret: string, request: ReceivedWebhook, body = request.body) => new Webhook(secret).verify(body, request.headers as Record<string, string>);

  it('delivers each event to the endpoint of its own mode only', async () => {
    const { accountId, hook: liveHook } = await subscriber();
    const sandboxHook = await receiver();
    await endpoints.register({ accountId, sandbox: true }, `${sandboxHook.url}/hooks`);
    await publish(accountId, { job: 'job_live', status: 'done' });
    await publish(accountId, { job: 'job_sandbox', status: 'done' }, true);

    await settled(accountId, 2);
    expect(liveHook.received.map((r) => JSON.parse(r.body).data.job)).toEqual(['job_live']);
    expect(sandboxHook.received.map((r) => JSON.parse(r.body).data.job)).toEqual(['job_sandbox']);
    expect((await endpoints.listDeliveries({ accountId, sandbox: true }, { limit: 50 })).deliveries.map((d) => d.delivery.url)).toEqual([`${sandboxHook.url}/hooks`]);
  });

  it('delivers a signed event that a Standard Webhooks receiver verifies, and records the attempt', async () => {
    let secret = '';
    const { accountId, hook, secret: issued } = await subscriber((request) => {
      try {
        verify(secret, request);
        return { status: 204 };
      } catch {
        return { status: 400 };
      }
    });
    secret = issued;
    const data = { job: 'job_signed', status: 'done', target: 'de', results: [{ index: 0, translation: 'Grüße 🌍', detected_source: 'en', words: 1 }] };
    const eventId = await publish(accountId, data);
    expect(eventId).toMatch(/^msg_[0-9A-Za-z]{27}$/);

    const [attempt] = await settled(accountId, 1);
    expect(attempt).toMatchObject({ eventId, attempt: 1, url: `${hook.url}/hooks`, statusCode: 204, error: null, final: true, nextAttemptAt: null });
    expect(hook.received).toHaveLength(1);
    const [request] = hook.received;
    expect(request.headers).toMatchObject({ 'webhook-id': eventId, 'content-type': 'application/json' });
    expect(Number(request.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);
    expect(JSON.parse(request.body)).toEqual({ type: 'batch.completed', timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), data });
    expect(verify(secret, request)).toEqual(JSON.parse(request.body));
    expect(() => verify(secret, request, request.body.replace('job_signed', 'job_forged'))).toThrow(WebhookVerificationError);
  });

  it('retries a receiver answering 500 three times, then 200: four attempts of one event, spaced by the schedule', async () => {
    const { accountId, hook } = await subscriber((_, index) => ({ status: index < 3 ? 500 : 200 }));
    const eventId = await publish(accountId);

    const rows = await settled(accountId, 4);
    expect(rows.map((r) => [r.attempt, r.statusCode, r.final])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 500, false],
      [4, 200, true],
    ]);
    expect(new Set(rows.map((r) => r.series)).size).toBe(1);
    expect(hook.received.map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId, eventId, eventId]);
    for (let i = 1; i < 4; i++) {
      expect(hook.received[i].at - hook.received[i - 1].at).toBeGreaterThanOrEqual(MIN_GAP_MS);
      expect(rows[i - 1].nextAttemptAt!.getTime()).toBeGreaterThan(rows[i - 1].createdAt.getTime());
    }
  });

  /** `webhook_attempts_total` by outcome. Other tests' attempts count too, so only growth is compared. */
  const outcomes = async () =>
    Object.fromEntries((await app.get(MetricsRegistry).registry.getSingleMetric('webhook_attempts_total')!.get()).values.map((v) => [v.labels.outcome, v.value]));

  it('gives up on a receiver that always fails after the first attempt and five retries, counting five retried attempts and one exhausted', async () => {
    const before = await outcomes();
    const { accountId, hook } = await subscriber(() => ({ status: 503 }));
    await publish(accountId);

    const rows = await settled(accountId, 6);
    expect(rows.map((r) => r.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rows.map((r) => r.final)).toEqual([false, false, false, false, false, true]);
    expect(rows[5].nextAttemptAt).toBeNull();
    const page = await endpoints.listDeliveries(live(accountId), { limit: 50 });
    expect(page.deliveries.map((d) => [d.delivery.attempt, d.number])).toEqual([6, 5, 4, 3, 2, 1].map((n) => [n, n]));
    // Nothing more is coming.
    await sleep(1500);
    expect(hook.received).toHaveLength(6);
    const after = await outcomes();
    expect(after.retried - before.retried).toBeGreaterThanOrEqual(5);
    expect(after.exhausted - before.exhausted).toBeGreaterThanOrEqual(1);
  });

  it('disables the endpoint when the receiver answers 410, and publishes nothing more to it', async () => {
    const { accountId, hook } = await subscriber(() => ({ status: 410 }));
    await publish(accountId);

    const [attempt] = await settled(accountId, 1);
    expect(attempt).toMatchObject({ statusCode: 410, final: true, error: 'The receiver answered 410 Gone; the endpoint was disabled' });
    expect(await endpoints.get(live(accountId))).toMatchObject({ disabledAt: expect.any(Date), disabledReason: 'The receiver answered 410 Gone' });
    expect(await publish(accountId)).toBeNull();

    // Registering the URL again enables it.
    const { endpoint } = await endpoints.register(live(accountId), `${hook.url}/hooks`);
    expect(endpoint).toMatchObject({ disabledAt: null, disabledReason: null });
    expect(await publish(accountId)).toMatch(/^msg_/);
  });

  it('records a 200 whose body never ends as delivered and closes the connection instead of reading it', async () => {
    const { accountId, hook } = await subscriber(() => ({ status: 200, body: 'endless' }));
    await publish(accountId);

    const [attempt] = await settled(accountId, 1);
    expect(attempt).toMatchObject({ attempt: 1, statusCode: 200, error: null, final: true });
    await pollUntil(() => hook.connections.open, (open) => open === 0, { what: 'the receiver to see its connection closed' });
    // Socket buffers take a few MiB at most; reading the body would have taken gigabytes by now.
    expect(hook.answered.bytes).toBeLessThan(16 * 1024 * 1024);
  });

  it('does not retry a 400, counting the attempt as refused', async () => {
    const before = await outcomes();
    const { accountId, hook } = await subscriber(() => ({ status: 400 }));
    await publish(accountId);

    const [attempt] = await settled(accountId, 1);
    expect(attempt).toMatchObject({ statusCode: 400, final: true, nextAttemptAt: null, error: 'The receiver refused the request with 400; it is not retried' });
    await sleep(1500);
    expect(hook.received).toHaveLength(1);
    expect(await endpoints.get(live(accountId))).toMatchObject({ disabledAt: null });
    expect((await outcomes()).refused - before.refused).toBeGreaterThanOrEqual(1);
  });

  it("retries a 429 after the receiver's Retry-After instead of the schedule", async () => {
    const { accountId, hook } = await subscriber((_, index) => (index === 0 ? { status: 429, headers: { 'retry-after': '3' } } : { status: 200 }));
    await publish(accountId);

    const rows = await settled(accountId, 2);
    expect(rows.map((r) => r.statusCode)).toEqual([429, 200]);
    expect(rows[0].nextAttemptAt!.getTime() - rows[0].createdAt.getTime()).toBeGreaterThanOrEqual(2900);
    expect(hook.received[1].at - hook.received[0].at).toBeGreaterThanOrEqual(2900);
  });

  it('retries after a timeout, a redirect and a refused connection, recording why each failed', async () => {
    const dead = await receiver();
    await dead.stop();
    const { accountId, hook } = await subscriber((_, index) => (index === 0 ? 'hang' : index === 1 ? { status: 302, headers: { location: 'http://127.0.0.1:1/' } } : { status: 200 }));
    await endpoints.register(live(accountId), `${dead.url}/gone`);
    await publish(accountId);

    // Point the endpoint back at the live receiver once the dead URL has failed.
    await pollUntil(() => attempts(accountId), (rows) => rows.length === 1, { what: 'first attempt' });
    await endpoints.register(live(accountId), `${hook.url}/hooks`);

    const rows = await settled(accountId, 4);
    expect(rows.map((r) => [r.url, r.statusCode])).toEqual([
      [`${dead.url}/gone`, null],
      [`${hook.url}/hooks`, null],
      [`${hook.url}/hooks`, 302],
      [`${hook.url}/hooks`, 200],
    ]);
    expect(rows[0].error).toMatch(/ECONNREFUSED/);
    expect(rows[1].error).toBe(`The receiver did not answer within ${WEBHOOK_TEST_ENV.WEBHOOK_TIMEOUT_MS} ms`);
    expect(rows[2].error).toBe('The receiver redirected with 302; redirects are not followed');
  });

  it('signs each attempt with the secret current at that moment', async () => {
    let rotated = '';
    const { accountId, hook, secret: first } = await subscriber(async (_, index) => {
      if (index > 0) return { status: 200 };
      rotated = (await endpoints.rotateSecret(live(accountId))).secret;
      return { status: 500 };
    });
    await publish(accountId);

    await settled(accountId, 2);
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(first);
    expect(() => verify(first, hook.received[0])).not.toThrow();
    expect(() => verify(rotated, hook.received[1])).not.toThrow();
    expect(() => verify(first, hook.received[1])).toThrow(WebhookVerificationError);
  });

  it('redelivers an event as a new series of attempts under the same webhook-id', async () => {
    const { accountId, hook } = await subscriber((_, index) => ({ status: index === 1 ? 500 : 200 }));
    const eventId = await publish(accountId);
    const [first] = await settled(accountId, 1);

    expect(await endpoints.redeliver(live(accountId), first.id)).toEqual({ eventId });
    const rows = await settled(accountId, 3);
    expect(rows.map((r) => [r.attempt, r.statusCode])).toEqual([
      [1, 200],
      [1, 500],
      [2, 200],
    ]);
    expect(rows[1].series).not.toBe(rows[0].series);
    expect(rows[2].series).toBe(rows[1].series);
    expect(hook.received.map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId, eventId]);
  });

  it('checks the URL again at delivery and records the refusal as a failed attempt', async () => {
    const { accountId } = await createTestKey();
    // As if the URL had been accepted earlier: what it points to now is what counts.
    await dataSource.getRepository(WebhookEndpoint).insert({ accountId, sandbox: false, url: 'http://169.254.169.254/latest/meta-data/', secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0' });
    await publish(accountId);

    const [attempt] = await pollUntil(() => attempts(accountId), (rows) => rows.length >= 1, { what: 'first attempt' });
    expect(attempt).toMatchObject({
      statusCode: null,
      final: false,
      error: 'The URL points to 169.254.169.254, a cloud metadata address; webhooks are only delivered to public Internet addresses',
    });
    // A deleted endpoint ends the series: the pending retry finds nothing to call.
    await endpoints.remove(live(accountId));
    await sleep(1500);
    expect(await attempts(accountId)).toHaveLength(1);
  });

  it('deletes events older than 30 days with their attempts, and keeps newer ones', async () => {
    const { accountId } = await subscriber();
    const [oldEvent, newEvent] = [await publish(accountId), await publish(accountId)];
    await settled(accountId, 2);
    await dataSource.query(`UPDATE translation.webhook_events SET created_at = now() - interval '31 days' WHERE id = $1`, [oldEvent]);

    expect(await app.get(WebhookRetention).sweep()).toBeGreaterThanOrEqual(1);
    expect((await attempts(accountId)).map((a) => a.eventId)).toEqual([newEvent]);
    const left = await dataSource.query('SELECT id FROM translation.webhook_events WHERE account_id = $1', [accountId]);
    expect(left).toEqual([{ id: newEvent }]);
  });

  it('publishes nothing for an account without an endpoint', async () => {
    const { accountId } = await createTestKey();
    expect(await publish(accountId)).toBeNull();
    expect(await dataSource.query('SELECT count(*)::int AS n FROM translation.webhook_events WHERE account_id = $1', [accountId])).toEqual([{ n: 0 }]);
  });
});
