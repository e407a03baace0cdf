import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AccountService, ApiKeyService, hashApiKey, type NewApiKey } from '@platform/auth';
import { loadConfig } from '@platform/service-kit';
import { http, pollUntil, testAppEnv } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

describe('key management API', () => {
  let app: NestFastifyApplication;
  let url: string;
  let keys: ApiKeyService;

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv()));
    url = await app.getUrl();
    keys = app.get(ApiKeyService);
  });
  afterAll(() => app.close());

  /** A fresh account with one manage key, so that listings hold only this test's keys. */
  async function manager(spec: Partial<NewApiKey> = {}) {
    const account = await app.get(AccountService).create(`keys-http-${randomUUID()}`, { activated: true });
    const { key, secret } = await keys.create(account.id, { sandbox: false, scopes: ['manage'], ...spec });
    const call = (method: string, path: string, options: Parameters<typeof http>[3] = {}) =>
      http(url, method, `/api/v1/keys${path}`, { token: secret, ...options });
    return { accountId: account.id, keyId: key.id, secret, call };
  }

  const keyRow = (id: string) => app.get(DataSource).query('SELECT * FROM translation.api_keys WHERE id = $1', [id]).then((rows) => rows[0]);

  it('creates a key, shows its secret once and stores only its hash', async () => {
    const { call, accountId } = await manager();
    const res = await call('POST', '', { json: { name: 'staging', sandbox: true, monthly_word_limit: 1000, rate_limit_per_minute: 30 } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      ok: true,
      key: {
        name: 'staging',
        prefix: 'svc_test_',
        sandbox: true,
        scopes: ['translate'],
        monthly_word_limit: 1000,
        rate_limit_per_minute: 30,
        revoked: false,
      },
    });
    const { secret, key } = res.body;
    expect(secret).toMatch(/^svc_test_[0-9A-Za-z]{40}$/);
    expect(key.hint).toBe(secret.slice(-4));

    const row = await keyRow(key.id);
    expect(row.account_id).toBe(accountId);
    expect(row.key_hash).toBe(hashApiKey(secret));
    expect(JSON.stringify(row)).not.toContain(secret.slice(9, -4));

    // A translate key: authenticated (not 401) but kept out of management (403).
    expect((await http(url, 'GET', '/api/v1/keys', { token: secret })).status).toBe(403);
    const listed = await call('GET', '');
    // Used since (the refused call above authenticated it): the rest is as created.
    expect({ ...listed.body.keys.find((k: { id: string }) => k.id === key.id), last_used_at: null }).toEqual(key);
    expect(listed.text).not.toContain(secret);
  });

  it('creates with defaults from an empty body: a translate key of the caller kind', async () => {
    const { call } = await manager();
    const res = await call('POST', '');
    expect(res.status).toBe(201);
    expect(res.body.key).toMatchObject({ prefix: 'svc_live_', sandbox: false, scopes: ['translate'], name: null, monthly_word_limit: null });
    const managing = await call('POST', '', { json: { scopes: ['manage'] } });
    expect(managing.body.key.scopes).toEqual(['translate', 'manage']);
    expect((await http(url, 'GET', '/api/v1/keys', { token: managing.body.secret })).status).toBe(200);
  });

  it('lists the account keys with their public fields only', async () => {
    const { call, keyId } = await manager();
    const created = await call('POST', '', { json: { name: 'second' } });
    const res = await call('GET', '');
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.keys.map((k: { id: string }) => k.id)).toEqual([keyId, created.body.key.id]);
    expect(Object.keys(res.body.keys[0]).sort()).toEqual(
      ['id', 'name', 'prefix', 'hint', 'sandbox', 'scopes', 'monthly_word_limit', 'rate_limit_per_minute', 'created_at', 'revoked', 'last_used_at', 'previous_secret_expires_at'].sort(),
    );
  });

  it('regenerates a key: same id, new secret, old secret refused at once', async () => {
    const { call } = await manager();
    const created = (await call('POST', '', { json: { monthly_word_limit: 50 } })).body;
    const res = await call('POST', `/${created.key.id}/regenerate`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, key: { id: created.key.id, monthly_word_limit: 50 } });
    expect(res.body.secret).not.toBe(created.secret);
    expect(res.body.key.hint).toBe(res.body.secret.slice(-4));
    expect((await http(url, 'GET', '/api/v1/keys', { token: created.secret })).status).toBe(401);
    expect((await http(url, 'GET', '/api/v1/keys', { token: res.body.secret })).status).toBe(403);
  });

  it('rolls a key: both secrets work inside the chosen window, only the new one after it or after the next regeneration', async () => {
    const { call } = await manager();
    const created = (await call('POST', '', { json: { name: 'rolled', scopes: ['manage'] } })).body;
    const works = async (secret: string) => (await http(url, 'GET', '/api/v1/keys', { token: secret })).status === 200;

    const rolled = await call('POST', `/${created.key.id}/regenerate`, { json: { previous_secret_valid_for: '24h' } });
    expect(rolled.status).toBe(200);
    const until = Date.parse(rolled.body.key.previous_secret_expires_at);
    expect(until - Date.now()).toBeGreaterThan(86_400_000 - 60_000);
    expect(until - Date.now()).toBeLessThanOrEqual(86_400_000);
    expect([await works(created.secret), await works(rolled.body.secret)]).toEqual([true, true]);
    const listed = (await call('GET', '')).body.keys.find((key: { id: string }) => key.id === created.key.id);
    expect(listed.previous_secret_expires_at).toBe(rolled.body.key.previous_secret_expires_at);

    // The window's end, brought forward: the previous secret is refused from then on.
    await app.get(DataSource).query(`UPDATE translation.api_keys SET previous_key_expires_at = now() - interval '1 second' WHERE id = $1`, [created.key.id]);
    expect([await works(created.secret), await works(rolled.body.secret)]).toEqual([false, true]);
    expect((await call('GET', '')).body.keys.find((key: { id: string }) => key.id === created.key.id).previous_secret_expires_at).toBeNull();

    // One previous secret at most: rolling again ends the one kept before; `none` keeps nothing.
    const again = (await call('POST', `/${created.key.id}/regenerate`, { json: { previous_secret_valid_for: '1h' } })).body;
    const last = (await call('POST', `/${created.key.id}/regenerate`, { json: { previous_secret_valid_for: 'none' } })).body;
    expect([await works(rolled.body.secret), await works(again.secret), await works(last.secret)]).toEqual([false, false, true]);
    expect(last.key.previous_secret_expires_at).toBeNull();

    // Revoking ends both.
    const kept = (await call('POST', `/${created.key.id}/regenerate`, { json: { previous_secret_valid_for: '7d' } })).body;
    await call('DELETE', `/${created.key.id}`);
    expect([await works(last.secret), await works(kept.secret)]).toEqual([false, false]);
  });

  it.each([[{ previous_secret_valid_for: '2h' }], [{ previous_secret_valid_for: 3600 }], [{ previous_secret_valid_for: null }], [{ extra: true }]])(
    'refuses a regeneration with %j, keeping the secret',
    async (json) => {
      const { call, keyId, secret } = await manager();
      const res = await call('POST', `/${keyId}/regenerate`, { json });
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('unsupported_language');
      expect((await http(url, 'GET', '/api/v1/keys', { token: secret })).status).toBe(200);
    },
  );

  it('shows when a key was last used, to the minute, written once a minute at most', async () => {
    const before = Date.now();
    const { call, keyId, secret } = await manager();
    const unused = (await call('POST', '', { json: { name: 'unused' } })).body;
    const row = await pollUntil(() => keyRow(keyId), (found) => found.last_used_at !== null);
    expect(row.last_used_at.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    await call('GET', '');
    expect((await keyRow(keyId)).last_used_at).toEqual(row.last_used_at);
    const listed = (await http(url, 'GET', '/api/v1/keys', { token: secret })).body.keys;
    expect(listed.find((key: { id: string }) => key.id === keyId).last_used_at).toBe(row.last_used_at.toISOString());
    expect(listed.find((key: { id: string }) => key.id === unused.key.id).last_used_at).toBeNull();
  });

  it('revokes a key: refused at once, listed as revoked, no longer changeable', async () => {
    const { call } = await manager();
    const created = (await call('POST', '', { json: { scopes: ['manage'] } })).body;
    const res = await call('DELETE', `/${created.key.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, key: { id: created.key.id, revoked: true } });
    expect((await http(url, 'GET', '/api/v1/keys', { token: created.secret })).status).toBe(401);
    expect((await call('DELETE', `/${created.key.id}`)).status).toBe(200);
    expect((await call('POST', `/${created.key.id}/regenerate`)).body.error).toBe('not_found');
    expect((await call('PATCH', `/${created.key.id}`, { json: { monthly_word_limit: 1 } })).body.error).toBe('not_found');
    expect((await keyRow(created.key.id)).revoked_at).not.toBeNull();
  });

  it('changes limits: a value sets, null removes, an absent field stays', async () => {
    const { call } = await manager();
    const { key, secret } = (await call('POST', '', { json: { monthly_word_limit: 100, rate_limit_per_minute: 20 } })).body;
    const patched = await call('PATCH', `/${key.id}`, { json: { monthly_word_limit: 0 } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ ok: true, key: { monthly_word_limit: 0, rate_limit_per_minute: 20 } });
    const cleared = await call('PATCH', `/${key.id}`, { json: { monthly_word_limit: null, rate_limit_per_minute: 100000 } });
    expect(cleared.body.key).toMatchObject({ monthly_word_limit: null, rate_limit_per_minute: 100000 });
    expect(await keys.authenticate(secret)).toMatchObject({ monthlyWordLimit: null, rateLimitPerMinute: 100000 });
  });

  it.each([
    [{ monthly_word_limit: -1 }, /monthly_word_limit/],
    [{ monthly_word_limit: 1.5 }, /monthly_word_limit/],
    [{ monthly_word_limit: '100' }, /monthly_word_limit/],
    [{ monthly_word_limit: 2 ** 60 }, /monthly_word_limit/],
    [{ rate_limit_per_minute: 0 }, /rate_limit_per_minute/],
    [{ rate_limit_per_minute: 100001 }, /rate_limit_per_minute/],
    [{ rate_limit_per_minute: true }, /rate_limit_per_minute/],
    [{ sandbox: true }, /sandbox/],
    [{}, /monthly_word_limit/],
  ])('refuses a bad limit change %j with 422', async (json, message) => {
    const { call, keyId } = await manager();
    const res = await call('PATCH', `/${keyId}`, { json });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'unsupported_language', message: expect.stringMatching(message) });
  });

  it.each([
    [{ scopes: ['admin'] }, /scopes/],
    [{ scopes: [] }, /scopes/],
    [{ scopes: 'manage' }, /scopes/],
    [{ sandbox: 'yes' }, /sandbox/],
    [{ name: '' }, /name/],
    [{ name: 'x'.repeat(101) }, /name/],
    [{ rate_limit_per_minute: 0 }, /rate_limit_per_minute/],
    [{ id: randomUUID() }, /id/],
  ])('refuses a bad new key %j with 422', async (json, message) => {
    const { call } = await manager();
    const res = await call('POST', '', { json });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'unsupported_language', message: expect.stringMatching(message) });
  });

  it("answers 404 for another account's key and for ids that are not key ids", async () => {
    const mine = await manager();
    const theirs = await manager();
    for (const id of [theirs.keyId, randomUUID(), 'not-a-uuid', '1']) {
      for (const [method, path, json] of [
        ['POST', `/${id}/regenerate`, undefined],
        ['DELETE', `/${id}`, undefined],
        ['PATCH', `/${id}`, { monthly_word_limit: 1 }],
      ] as const) {
        const res = await mine.call(method, path, { json });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body).toEqual({ error: 'not_found', message: expect.any(String) });
      }
    }
    expect((await mine.call('GET', '')).body.keys.map((k: { id: string }) => k.id)).not.toContain(theirs.keyId);
    expect((await http(url, 'GET', '/api/v1/keys', { token: theirs.secret })).status).toBe(200);
  });

  it('keeps sandbox keys to the sandbox', async () => {
    const live = await manager();
    const sandboxManager = (await live.call('POST', '', { json: { sandbox: true, scopes: ['manage'] } })).body;
    const asSandbox = (method: string, path: string, json?: unknown) => http(url, method, `/api/v1/keys${path}`, { token: sandboxManager.secret, json });

    const defaulted = await asSandbox('POST', '');
    expect(defaulted.body.key).toMatchObject({ sandbox: true, prefix: 'svc_test_' });
    const escalate = await asSandbox('POST', '', { sandbox: false });
    expect(escalate.status).toBe(403);
    expect(escalate.body).toEqual({ error: 'forbidden', message: expect.stringContaining('sandbox') });

    expect((await asSandbox('GET', '')).body.keys.every((k: { sandbox: boolean }) => k.sandbox)).toBe(true);
    expect((await asSandbox('POST', `/${live.keyId}/regenerate`)).status).toBe(404);
    expect((await asSandbox('DELETE', `/${live.keyId}`)).status).toBe(404);
    expect((await live.call('GET', '')).body.keys).toHaveLength(3);
  });

  it('answers transport errors on a POST route in the envelope', async () => {
    const { call } = await manager();
    const plain = await call('POST', '', { body: '{"name":"x"}', headers: { 'content-type': 'text/plain' } });
    expect(plain.status).toBe(415);
    expect(plain.body).toEqual({ error: 'unsupported_media_type', message: expect.any(String) });
    const form = await call('POST', '', { body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(415);
    const malformed = await call('POST', '', { body: '{"name": ', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ error: 'invalid_json', message: expect.any(String) });
    expect((await call('GET', '')).body.keys).toHaveLength(1);
  });

  it('documents every key endpoint in the OpenAPI document', async () => {
    const { body } = await http(url, 'GET', '/openapi.json');
    expect(Object.keys(body.paths['/api/v1/keys'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(body.paths['/api/v1/keys/{id}'])).toEqual(expect.arrayContaining(['delete', 'patch']));
    expect(body.paths['/api/v1/keys/{id}/regenerate'].post.responses['200']).toBeDefined();
  });
});
