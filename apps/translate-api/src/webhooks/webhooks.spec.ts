import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, testAppEnv, WEBHOOK_TEST_ENV } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

const start = (env: Record<string, string> = {}) => serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ ...WEBHOOK_TEST_ENV, ...env })));

/** Any port: registration resolves and checks the host but never calls the URL. */
const HOOK = 'http://127.0.0.1:9/hooks';

describe('webhook endpoint API', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    app = await start();
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  /** A new account with a manage key. */
  async function manager() {
    const key = await createTestKey({ scopes: ['translate', 'manage'], rateLimitPerMinute: 1000 });
    const call = (method: string, path = '', options: Parameters<typeof http>[3] = {}) => http(url, method, `/api/v1/webhook${path}`, { token: key.plainKey, ...options });
    return { ...key, call };
  }

  const storedSecret = async (accountId: string) =>
    (await app.get(DataSource).query('SELECT secret FROM translation.webhook_endpoints WHERE account_id = $1', [accountId]))[0]?.secret;

  it('registers a URL and shows the signing secret once', async () => {
    const { call, accountId } = await manager();
    const res = await call('PUT', '', { json: { url: HOOK } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      ok: true,
      webhook: { url: HOOK, secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/), disabled: false, disabled_reason: null, created_at: expect.any(String), updated_at: expect.any(String) },
    });
    const { secret } = res.body.webhook;
    expect(await storedSecret(accountId)).toBe(secret);

    const shown = await call('GET');
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({ ok: true, webhook: { url: HOOK, disabled: false, disabled_reason: null, created_at: res.body.webhook.created_at, updated_at: res.body.webhook.updated_at } });
    expect(shown.text).not.toContain(secret.slice(6));
  });

  it('changes the URL of an existing endpoint, keeping its secret and not showing it', async () => {
    const { call, accountId } = await manager();
    const created = (await call('PUT', '', { json: { url: HOOK } })).body.webhook;
    const res = await call('PUT', '', { json: { url: 'http://127.0.0.1:8080/other?x=1' } });
    expect(res.status).toBe(200);
    expect(res.body.webhook).toMatchObject({ url: 'http://127.0.0.1:8080/other?x=1', created_at: created.created_at });
    expect(res.body.webhook).not.toHaveProperty('secret');
    expect(Date.parse(res.body.webhook.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
    expect(await storedSecret(accountId)).toBe(created.secret);
  });

  it('rotates the secret, showing the new one once', async () => {
    const { call, accountId } = await manager();
    const created = (await call('PUT', '', { json: { url: HOOK } })).body.webhook;
    const res = await call('POST', '/rotate-secret');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, webhook: { url: HOOK, secret: expect.stringMatching(/^whsec_/) } });
    expect(res.body.webhook.secret).not.toBe(created.secret);
    expect(await storedSecret(accountId)).toBe(res.body.webhook.secret);
    expect((await call('GET')).text).not.toContain(res.body.webhook.secret.slice(6));
  });

  it('deletes the endpoint; afterwards every endpoint route answers 404', async () => {
    const { call } = await manager();
    await call('PUT', '', { json: { url: HOOK } });
    const res = await call('DELETE');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    for (const [method, path] of [
      ['GET', ''],
      ['DELETE', ''],
      ['POST', '/rotate-secret'],
    ]) {
      const gone = await call(method, path);
      expect(gone.status, `${method} ${path}`).toBe(404);
      expect(gone.body).toEqual({ error: 'not_found', message: 'No sandbox webhook endpoint is registered; register one with PUT /api/v1/webhook' });
    }
    // A new endpoint gets a new secret.
    expect((await call('PUT', '', { json: { url: HOOK } })).status).toBe(201);
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 'url: The URL points to 169.254.169.254, a cloud metadata address; webhooks are only delivered to public Internet addresses'],
    ['http://10.0.0.1/', 'url: The URL points to 10.0.0.1, a private address; webhooks are only delivered to public Internet addresses'],
    ['http://192.168.0.10:8080/hook', 'url: The URL points to 192.168.0.10, a private address; webhooks are only delivered to public Internet addresses'],
    ['http://[::1]:8080/', 'url: The URL points to ::1, a loopback address; webhooks are only delivered to public Internet addresses'],
    ['http://127.0.0.2/', 'url: The URL points to 127.0.0.2, a loopback address; webhooks are only delivered to public Internet addresses'],
    ['http://[::ffff:169.254.169.254]/', 'url: The URL points to ::ffff:a9fe:a9fe, a cloud metadata address; webhooks are only delivered to public Internet addresses'],
    ['http://100.64.1.1/', 'url: The URL points to 100.64.1.1, a carrier-grade NAT address; webhooks are only delivered to public Internet addresses'],
    // A name is refused without what it resolves to, the same whether it resolves internally or not at all.
    ['http://nowhere.invalid/hook', 'url: The host nowhere.invalid is not allowed: webhooks are only delivered to public Internet addresses, and it does not resolve to one'],
    ['ftp://127.0.0.1/', 'url: The URL must use http or https'],
    ['hooks.example.com/in', 'url: The URL is not an absolute URL'],
    ['http://user:pass@127.0.0.1/', 'url: The URL must not contain a user name or password'],
  ])('refuses %s with 422 and stores nothing', async (hook, message) => {
    const { call } = await manager();
    const res = await call('PUT', '', { json: { url: hook } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'unsupported_language', message });
    expect((await call('GET')).status).toBe(404);
  });

  it.each([
    [{}, /url/],
    [{ url: 5 }, /url must be a string/],
    [{ url: '' }, /url should not be empty/],
    [{ url: `http://127.0.0.1/${'a'.repeat(2048)}` }, /url must be shorter than or equal to 2048 characters/],
    [{ url: HOOK, secret: 'whsec_mine' }, /property secret should not exist/],
  ])('refuses the body %j with 422', async (json, message) => {
    const { call } = await manager();
    const res = await call('PUT', '', { json });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'unsupported_language', message: expect.stringMatching(message) });
  });

  it('re-enables a disabled endpoint when its URL is registered again', async () => {
    const { call, accountId } = await manager();
    await call('PUT', '', { json: { url: HOOK } });
    await app.get(DataSource).query(`UPDATE translation.webhook_endpoints SET disabled_at = now(), disabled_reason = 'The receiver answered 410 Gone' WHERE account_id = $1`, [accountId]);
    expect((await call('GET')).body.webhook).toMatchObject({ disabled: true, disabled_reason: 'The receiver answered 410 Gone' });

    const res = await call('PUT', '', { json: { url: HOOK } });
    expect(res.status).toBe(200);
    expect(res.body.webhook).toMatchObject({ disabled: false, disabled_reason: null });
  });

  it('refuses keys without the manage scope with 403 on every webhook route', async () => {
    const { plainKey } = await createTestKey({ scopes: ['translate'] });
    for (const [method, path, json] of [
      ['PUT', '', { url: HOOK }],
      ['GET', ''],
      ['DELETE', ''],
      ['POST', '/rotate-secret'],
      ['GET', '/deliveries'],
      ['POST', `/deliveries/${randomUUID()}/redeliver`],
    ] as const) {
      const res = await http(url, method, `/api/v1/webhook${path}`, { token: plainKey, json });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual({ error: 'forbidden', message: 'This key lacks the "manage" scope' });
    }
    expect((await http(url, 'GET', '/api/v1/webhook')).status).toBe(401);
  });

  it('lists no deliveries for a new account and validates the paging parameters', async () => {
    const { call } = await manager();
    expect((await call('GET', '/deliveries')).body).toEqual({ ok: true, deliveries: [], next_before: null });
    for (const [query, message] of [
      ['limit=0', /limit must not be less than 1/],
      ['limit=101', /limit must not be greater than 100/],
      ['limit=abc', /limit must be an integer/],
      ['limit=2.5', /limit must be an integer/],
      [`before=${randomUUID()}`, /^before: no delivery .* in this account$/],
      ['before=not-a-uuid', /^before: no delivery not-a-uuid in this account$/],
      ['page=2', /property page should not exist/],
    ] as const) {
      const res = await call('GET', `/deliveries?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body).toEqual({ error: 'unsupported_language', message: expect.stringMatching(message) });
    }
  });

  it('answers 404 when redelivering an attempt that is not there', async () => {
    const { call } = await manager();
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const res = await call('POST', `/deliveries/${id}/redeliver`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'not_found', message: `Delivery ${id} not found` });
    }
  });

  it('documents every webhook route in the OpenAPI document', async () => {
    const { body } = await http(url, 'GET', '/openapi.json');
    expect(Object.keys(body.paths['/api/v1/webhook'])).toEqual(expect.arrayContaining(['put', 'get', 'delete']));
    expect(body.paths['/api/v1/webhook'].put.responses).toHaveProperty('201');
    expect(body.paths['/api/v1/webhook'].put.responses).toHaveProperty('422');
    expect(body.paths['/api/v1/webhook/rotate-secret'].post.responses).toHaveProperty('200');
    expect(body.paths['/api/v1/webhook/deliveries'].get.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['limit', 'before']));
    expect(body.paths['/api/v1/webhook/deliveries/{id}/redeliver'].post.responses).toHaveProperty('202');
  });
});

describe('webhook endpoint API in production mode', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    // Behind a TLS-terminating proxy on loopback, as production runs it.
    app = await start({ NODE_ENV: 'production', TRUSTED_PROXIES: '127.0.0.1' });
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  it('accepts only https URLs', async () => {
    const { plainKey } = await createTestKey({ scopes: ['translate', 'manage'] });
    const put = (hook: string) => http(url, 'PUT', '/api/v1/webhook', { token: plainKey, json: { url: hook }, headers: { 'x-forwarded-proto': 'https' } });
    expect((await put('http://127.0.0.1:9/hooks')).body).toEqual({ error: 'unsupported_language', message: 'url: The URL must use https' });
    expect((await put('https://127.0.0.1:9/hooks')).status).toBe(201);
  });
});
