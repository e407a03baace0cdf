import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AccountService, ApiKeyService, type NewApiKey } from '@platform/auth';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, testAppEnv } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

describe('API key authentication (translate-api over HTTP)', () => {
  let app: NestFastifyApplication;
  let url: string;
  let keys: ApiKeyService;
  let accountId: string;

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv()));
    url = await app.getUrl();
    keys = app.get(ApiKeyService);
    accountId = (await app.get(AccountService).create(`auth-http-${randomUUID()}`, { activated: true })).id;
  });
  afterAll(() => app.close());

  const issue = (spec: Partial<NewApiKey> = {}) => keys.create(accountId, { sandbox: true, scopes: ['manage'], ...spec });
  const listKeys = (headers: Record<string, string> = {}) => http(url, 'GET', '/api/v1/keys', { headers });

  const expectInvalidKey = (res: Awaited<ReturnType<typeof http>>) => {
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'invalid_key', message: expect.any(String) });
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  };

  it('lets a key created through ApiKeyService in', async () => {
    const { key, secret } = await issue();
    const res = await listKeys({ authorization: `Bearer ${secret}` });
    expect(res.status).toBe(200);
    expect(res.body.keys.map((k: { id: string }) => k.id)).toContain(key.id);
  });

  it('accepts live keys and the scheme in any case', async () => {
    const { secret } = await issue({ sandbox: false });
    expect((await listKeys({ authorization: `bearer ${secret}` })).status).toBe(200);
  });

  it('refuses a request without a key', async () => {
    const res = await listKeys();
    expectInvalidKey(res);
    expect(res.body.message).toMatch(/Authorization: Bearer/);
  });

  it.each([
    ['Bearer foo'],
    ['Bearer'],
    ['Basic dXNlcjpwYXNz'],
    [`Bearer sk_live_${'a'.repeat(40)}`],
    [`Bearer svc_prod_${'a'.repeat(40)}`],
    [`Token svc_test_${'a'.repeat(40)}`],
  ])('refuses a malformed credential: %s', async (authorization) => {
    expectInvalidKey(await listKeys({ authorization }));
  });

  it('refuses a well-formed key that does not exist', async () => {
    expectInvalidKey(await listKeys({ authorization: `Bearer svc_test_${'A'.repeat(40)}` }));
  });

  it('refuses a key the moment it is revoked', async () => {
    const { key, secret } = await issue();
    expect((await listKeys({ authorization: `Bearer ${secret}` })).status).toBe(200);
    await keys.revoke({ accountId, sandboxOnly: false }, key.id);
    expectInvalidKey(await listKeys({ authorization: `Bearer ${secret}` }));
  });

  it('refuses the old secret the moment a key is regenerated', async () => {
    const { key, secret } = await issue();
    const renewed = await keys.regenerate({ accountId, sandboxOnly: false }, key.id);
    expectInvalidKey(await listKeys({ authorization: `Bearer ${secret}` }));
    expect((await listKeys({ authorization: `Bearer ${renewed.secret}` })).status).toBe(200);
  });

  it('refuses translate-scope keys on management routes with 403', async () => {
    const { secret } = await issue({ scopes: ['translate'] });
    const res = await listKeys({ authorization: `Bearer ${secret}` });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'forbidden', message: expect.stringContaining('manage') });
  });

  it('refuses a key of an account whose sign-up is not complete as if it did not exist, until it is', async () => {
    // No interface issues such a key: it stands for one written to the database by other means.
    const signedUp = await app.get(AccountService).create(`auth-signup-${randomUUID()}`, { activated: false, signedUp: true });
    const { plainKey } = await createTestKey({ accountId: signedUp.id, scopes: ['manage'] });
    expectInvalidKey(await listKeys({ authorization: `Bearer ${plainKey}` }));
    await app.get(DataSource).query('UPDATE translation.accounts SET signup_verified_at = now() WHERE id = $1', [signedUp.id]);
    expectInvalidKey(await listKeys({ authorization: `Bearer ${plainKey}` }));
    await app.get(AccountService).approveSignup((await app.get(AccountService).findById(signedUp.id))!);
    expect((await listKeys({ authorization: `Bearer ${plainKey}` })).status).toBe(200);
  });

  it('keeps operational endpoints public and unknown routes in the envelope', async () => {
    expect((await http(url, 'GET', '/health')).status).toBe(200);
    expect((await http(url, 'GET', '/metrics')).status).toBe(200);
    expect((await http(url, 'GET', '/openapi.json')).status).toBe(200);
    expect(await http(url, 'GET', '/api/v1/nope')).toMatchObject({ status: 404, body: { error: 'not_found' } });
  });
});
