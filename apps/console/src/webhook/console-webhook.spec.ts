import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { OutboxMessage } from '@platform/outbox';
import { WEBHOOK_TEST_ENV } from '@platform/testing';
import { WebhookDelivery, WebhookEvents } from '@platform/webhooks';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithOwner, Browser, startConsole, type TestAccount } from '../console-browser.testing';

/** Registration checks the address but never calls it. */
const HOOK = 'http://127.0.0.1:9/hooks';

describe('console webhook over HTTP', () => {
  let app: NestFastifyApplication;
  let url: string;
  let account: TestAccount;

  beforeAll(async () => {
    ({ app, url } = await startConsole(WEBHOOK_TEST_ENV));
    account = await accountWithOwner(app, url);
  });
  afterAll(() => app?.close());

  /** An event of the account's sandbox endpoint and one failed attempt, as webhook-dispatcher records it. */
  async function attempt(accountId: string): Promise<{ eventId: string; deliveryId: string }> {
    const data = app.get(DataSource);
    const eventId = (await data.transaction((manager) => app.get(WebhookEvents).publish(manager, { accountId, sandbox: true, type: 'batch.completed', data: {} })))!;
    const delivery = await data.getRepository(WebhookDelivery).save({ eventId, accountId, series: randomUUID(), attempt: 1, url: HOOK, statusCode: 500, error: null, durationMs: 42, nextAttemptAt: null, final: true });
    return { eventId, deliveryId: delivery.id };
  }

  it('registers a URL per mode, shows the secret once, and rotates it', async () => {
    const fresh = await accountWithOwner(app, url);
    expect((await fresh.owner.call('GET', '/webhook?mode=sandbox')).body).toEqual({ ok: true, webhook: null });
    const created = await fresh.owner.call('PUT', '/webhook?mode=sandbox', { url: HOOK });
    expect(created.status).toBe(201);
    expect(created.body.webhook).toMatchObject({ url: HOOK, disabled: false, secret: expect.stringMatching(/^whsec_/) });
    const shown = await fresh.owner.call('GET', '/webhook?mode=sandbox');
    expect(shown.body.webhook).toMatchObject({ url: HOOK, disabled: false });
    expect(shown.text).not.toContain(created.body.webhook.secret);
    expect((await fresh.owner.call('GET', '/webhook?mode=live')).body.webhook).toBeNull();

    const changed = await fresh.owner.call('PUT', '/webhook?mode=sandbox', { url: `${HOOK}/v2` });
    expect(changed.status).toBe(200);
    expect(changed.body.webhook).not.toHaveProperty('secret');

    const rotated = await fresh.owner.call('POST', '/webhook/rotate-secret?mode=sandbox');
    expect(rotated.status).toBe(200);
    expect(rotated.body.webhook.secret).toMatch(/^whsec_/);
    expect(rotated.body.webhook.secret).not.toBe(created.body.webhook.secret);
    expect((await fresh.owner.call('GET', '/webhook?mode=sandbox')).text).not.toContain(rotated.body.webhook.secret);
    expect((await fresh.owner.call('POST', '/webhook/rotate-secret?mode=live')).status).toBe(404);

    expect((await fresh.owner.call('DELETE', '/webhook?mode=sandbox')).body).toEqual({ ok: true });
    expect((await fresh.owner.call('GET', '/webhook?mode=sandbox')).body.webhook).toBeNull();
  });

  it('refuses internal addresses and bad bodies with the message of the address check', async () => {
    for (const [body, message] of [
      [{ url: 'http://10.0.0.1/' }, 'url: The URL points to 10.0.0.1, a private address; webhooks are only delivered to public Internet addresses'],
      [{ url: 'ftp://127.0.0.1/' }, 'url: The URL must use http or https'],
      [{ url: '' }, 'url should not be empty'],
      [{}, expect.stringContaining('url must be a string')],
    ] as const) {
      const res = await account.owner.call('PUT', '/webhook?mode=sandbox', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual({ error: 'invalid_request', message });
    }
  });

  it('lists delivery attempts with status and timing, and redelivers one', async () => {
    const fresh = await accountWithOwner(app, url);
    await fresh.owner.call('PUT', '/webhook?mode=sandbox', { url: HOOK });
    const { eventId, deliveryId } = await attempt(fresh.accountId);
    const listed = await fresh.owner.call('GET', '/webhook/deliveries?mode=sandbox');
    expect(listed.body).toEqual({
      ok: true,
      deliveries: [expect.objectContaining({ id: deliveryId, event_id: eventId, event_type: 'batch.completed', attempt: 1, number: 1, status_code: 500, success: false, duration_ms: 42, final: true })],
      next_before: null,
    });
    expect((await fresh.owner.call('GET', '/webhook/deliveries?mode=live')).body.deliveries).toEqual([]);

    const queued = await app.get(DataSource).getRepository(OutboxMessage).count();
    const redelivered = await fresh.owner.call('POST', `/webhook/deliveries/${deliveryId}/redeliver?mode=sandbox`);
    expect(redelivered.status).toBe(202);
    expect(redelivered.body).toEqual({ ok: true, event_id: eventId });
    expect(await app.get(DataSource).getRepository(OutboxMessage).count()).toBeGreaterThan(queued);

    // A test event is queued for the session's mode only, and logged under its own type.
    const tested = await fresh.owner.call('POST', '/webhook/test?mode=sandbox');
    expect(tested.status).toBe(202);
    const [event] = await app.get(DataSource).query('SELECT account_id, sandbox, type FROM translation.webhook_events WHERE id = $1', [tested.body.event_id]);
    expect(event).toEqual({ account_id: fresh.accountId, sandbox: true, type: 'webhook.test' });
    expect((await fresh.owner.call('POST', '/webhook/test?mode=live')).status).toBe(404);
    expect((await fresh.owner.call('GET', '/webhook/deliveries?mode=sandbox&type=webhook.test')).body.deliveries).toEqual([]);
    expect((await fresh.owner.call('GET', '/webhook/deliveries?mode=sandbox&type=batch.completed')).body.deliveries).toHaveLength(1);

    const badPage = await fresh.owner.call('GET', '/webhook/deliveries?mode=sandbox&limit=500');
    expect(badPage.status).toBe(422);
    expect(badPage.body).toEqual({ error: 'invalid_request', message: 'limit must not be greater than 100' });

    const other = await accountWithOwner(app, url);
    await other.owner.call('PUT', '/webhook?mode=sandbox', { url: HOOK });
    const foreign = await other.owner.call('POST', `/webhook/deliveries/${deliveryId}/redeliver?mode=sandbox`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'not_found', message: `Delivery ${deliveryId} not found` });
    expect((await other.owner.call('GET', '/webhook/deliveries?mode=sandbox')).body.deliveries).toEqual([]);
  });

  it('lets members in, refuses reviewers, the signed-out and calls without the CSRF token', async () => {
    const { browser: member } = await account.join('member');
    expect((await member.call('PUT', '/webhook?mode=live', { url: HOOK })).status).toBe(201);
    const { browser: reviewer } = await account.join('reviewer');
    for (const [method, path] of [['GET', '/webhook?mode=sandbox'], ['PUT', '/webhook?mode=sandbox'], ['GET', '/webhook/deliveries?mode=sandbox']] as const) {
      const res = await reviewer.call(method, path, method === 'PUT' ? { url: HOOK } : undefined);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect((await new Browser(url).call('GET', '/webhook?mode=sandbox')).status).toBe(401);
    const noCsrf = await account.owner.call('POST', '/webhook/rotate-secret?mode=live', undefined, { csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.error).toBe('csrf_token_invalid');
  });
});
