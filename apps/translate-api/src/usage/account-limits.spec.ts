import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AccountService, type Account } from '@platform/auth';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, testAppEnv, type TestKey } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

/** Eight words. */
const SOFA = 'The cat is sleeping on the red sofa.';

/** Limits in two levels: the account's (sandbox quota, operator's ceilings) and each key's within it. */
describe('account and key limits (HTTP)', () => {
  let app: NestFastifyApplication;
  let url: string;
  let accounts: AccountService;

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ SANDBOX_MONTHLY_WORDS: '20', MAX_KEYS_PER_ACCOUNT: '4', RATE_LIMIT_PER_MINUTE: '1000' })));
    url = await app.getUrl();
    accounts = app.get(AccountService);
  });
  afterAll(() => app.close());

  const as = (key: string) => (method: string, path: string, json?: unknown) => http(url, method, `/api/v1${path}`, { token: key, json });
  const translate = (key: string) => as(key)('POST', '/translate', { source: 'en', target: 'es', texts: [SOFA] });

  async function account(limits: Parameters<AccountService['setLimits']>[1] = {}): Promise<Account> {
    return accounts.setLimits(await accounts.create(`limits-${randomUUID()}`, { activated: true }), limits);
  }
  const manageKey = (accountId: string, sandbox: boolean): Promise<TestKey> => createTestKey({ accountId, sandbox, scopes: ['translate', 'manage'] });

  it('holds all sandbox keys of an account to one sandbox quota, however many a manage key mints', async () => {
    const { id } = await account();
    const manager = await manageKey(id, true);
    const minted: string[] = [];
    for (let i = 0; i < 3; i++) minted.push((await as(manager.plainKey)('POST', '/keys', { monthly_word_limit: 1_000_000 })).body.secret);

    expect((await translate(minted[0])).status).toBe(200);
    expect((await translate(minted[1])).status).toBe(200);
    const refused = await translate(minted[2]);
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({
      error: 'quota_exceeded',
      message: expect.stringMatching(/^The account's sandbox quota is reached \(all its sandbox keys together\): this request needs 8 words, 4 of 20 remain/),
    });
    expect((await as(minted[2])('GET', '/usage')).body).toMatchObject({ words: 0, limit: 20, remaining: 4, account: { mode: 'sandbox', words: 16, limit: 20, remaining: 4 } });
    // Live keys of the account are another world, not held to the test quota.
    const live = await manageKey(id, false);
    expect((await translate(live.plainKey)).status).toBe(200);
  });

  it('caps the keys of an account, sandbox and live together, counting only keys not revoked', async () => {
    const { id } = await account();
    const manager = await manageKey(id, false);
    const created = [];
    for (let i = 0; i < 3; i++) created.push(await as(manager.plainKey)('POST', '/keys', { sandbox: i === 0 }));
    expect(created.map((res) => res.status)).toEqual([201, 201, 201]);

    const refused = await as(manager.plainKey)('POST', '/keys', {});
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      error: 'unsupported_language',
      message: 'An account holds at most 4 keys that are not revoked (sandbox and live together); revoke one before creating another',
    });
    await as(manager.plainKey)('DELETE', `/keys/${created[1].body.key.id}`);
    expect((await as(manager.plainKey)('POST', '/keys', {})).status).toBe(201);
  });

  it("refuses a key limit above the account's ceiling with 422 naming the ceiling", async () => {
    const { id } = await account({ monthlyWordLimit: 1000, rateLimitPerMinute: 100 });
    const manager = await manageKey(id, false);
    const call = as(manager.plainKey);

    const tooMany = await call('PATCH', `/keys/${manager.keyId}`, { monthly_word_limit: 1001 });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body).toEqual({
      error: 'unsupported_language',
      message: "monthly_word_limit: 1001 is above the account's ceiling of 1000 words a month, set by the operator; a key's limit can be at most the ceiling",
    });
    expect((await call('PATCH', `/keys/${manager.keyId}`, { rate_limit_per_minute: 101 })).body.message).toMatch(/ceiling of 100 requests per minute/);
    expect((await call('POST', '/keys', { monthly_word_limit: 5000 })).status).toBe(422);
    expect((await call('PATCH', `/keys/${manager.keyId}`, { monthly_word_limit: 1000, rate_limit_per_minute: 100 })).status).toBe(200);
  });

  it('charges concurrent requests of several keys within both the key limits and the account ceiling, naming the limit hit', async () => {
    const { id } = await account({ monthlyWordLimit: 40 });
    const manager = await manageKey(id, false);
    const limited = (await as(manager.plainKey)('POST', '/keys', { monthly_word_limit: 16 })).body.secret as string;
    const open = (await as(manager.plainKey)('POST', '/keys', {})).body.secret as string;

    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => translate(i % 2 === 0 ? limited : open).then((res) => ({ key: i % 2, res }))));
    const ok = results.filter(({ res }) => res.status === 200);
    expect(ok).toHaveLength(5);
    expect(ok.filter(({ key }) => key === 0).length).toBeLessThanOrEqual(2);
    for (const { key, res } of results.filter(({ res }) => res.status !== 200)) {
      expect(res.status).toBe(402);
      expect(res.body.error).toBe('quota_exceeded');
      const names = key === 0 ? /^(The key's monthly word limit is reached|The account's monthly ceiling is reached)/ : /^The account's monthly ceiling is reached \(all its live keys together\)/;
      expect(res.body.message).toMatch(names);
    }
    expect((await as(open)('GET', '/usage')).body.account).toEqual({ mode: 'live', words: 40, cost_cents: expect.any(Number), limit: 40, remaining: 0 });
  });

  it("refuses requests past the account's rate ceiling, summed over its keys, with 429 naming it", async () => {
    const { id } = await account({ rateLimitPerMinute: 5 });
    const keys = await Promise.all([createTestKey({ accountId: id, sandbox: false }), createTestKey({ accountId: id, sandbox: false })]);
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => as(keys[i % 2].plainKey)('GET', '/usage')));

    expect(results.filter((res) => res.status === 200)).toHaveLength(5);
    const refused = results.filter((res) => res.status !== 200);
    for (const res of refused) {
      expect(res.status).toBe(429);
      expect(res.body.message).toMatch(/^The account's rate ceiling of 5 requests per minute \(all its live keys together\) is reached; retry in \d+ s$/);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // The sandbox world has its own window.
    expect((await as((await createTestKey({ accountId: id })).plainKey)('GET', '/usage')).status).toBe(200);
  });
});
