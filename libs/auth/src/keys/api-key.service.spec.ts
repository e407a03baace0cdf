import { dataSourceOptions, translationDomain } from '@platform/database';
import { ApiError } from '@platform/errors';
import { testEnv } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Account } from '../accounts/account.entity';
import { AccountService } from '../accounts/account.service';
import { hashApiKey } from './api-key-secret.util';
import { ApiKey } from './api-key.entity';
import { ApiKeyService, KeyOwner } from './api-key.service';

describe('ApiKeyService against Postgres', () => {
  let dataSource: DataSource;
  let keys: ApiKeyService;
  let owner: KeyOwner;

  beforeAll(async () => {
    dataSource = new DataSource({ ...dataSourceOptions(testEnv.databaseUrl, translationDomain, 2), entities: [Account, ApiKey] });
    await dataSource.initialize();
    keys = new ApiKeyService(dataSource.getRepository(ApiKey), { maxKeysPerAccount: 25 });
    const account = await new AccountService(dataSource.getRepository(Account)).create(`auth-spec-${randomUUID()}`, { activated: true });
    owner = { accountId: account.id, sandboxOnly: false };
  });
  afterAll(() => dataSource.destroy());

  const expectNotFound = (promise: Promise<unknown>) => expect(promise).rejects.toSatisfy((e) => e instanceof ApiError && e.getStatus() === 404);

  it('stores only the hash and the hint of a new key', async () => {
    const { key, secret } = await keys.create(owner.accountId, { sandbox: true, name: 'ci' });
    const [row] = await dataSource.query('SELECT * FROM translation.api_keys WHERE id = $1', [key.id]);
    expect(row.key_hash).toBe(hashApiKey(secret));
    expect(row.key_hint).toBe(secret.slice(-4));
    expect(Object.values(row).some((value) => typeof value === 'string' && value.includes(secret.slice(9)))).toBe(false);
    expect(row).toMatchObject({ sandbox: true, scopes: ['translate'], name: 'ci', revoked_at: null });
  });

  it('authenticates a key into its principal', async () => {
    const { key, secret } = await keys.create(owner.accountId, { sandbox: false, scopes: ['manage'], monthlyWordLimit: 5000, rateLimitPerMinute: 10 });
    expect(await keys.authenticate(secret)).toEqual({
      keyId: key.id,
      accountId: owner.accountId,
      sandbox: false,
      scopes: ['translate', 'manage'],
      monthlyWordLimit: 5000,
      rateLimitPerMinute: 10,
      account: { monthlyWordLimit: null, rateLimitPerMinute: null },
      hasMemories: false,
    });
  });

  it('says whether the account has a translation memory in the key\'s mode, as the key is looked up', async () => {
    const live = await keys.create(owner.accountId, { sandbox: false });
    const sandbox = await keys.create(owner.accountId, { sandbox: true });
    expect((await keys.authenticate(live.secret))?.hasMemories).toBe(false);
    await dataSource.query(`INSERT INTO translation.memories (account_id, sandbox, name) VALUES ($1, false, 'UI')`, [owner.accountId]);
    expect((await keys.authenticate(live.secret))?.hasMemories).toBe(true);
    expect((await keys.authenticate(sandbox.secret))?.hasMemories).toBe(false);
  });

  it('refuses malformed keys without asking the database', async () => {
    const closed = new DataSource({ ...dataSourceOptions(testEnv.databaseUrl, translationDomain, 1), entities: [Account, ApiKey] });
    await closed.initialize();
    await closed.destroy();
    // Any query through a destroyed data source throws; a malformed key must not get that far.
    const offline = new ApiKeyService(closed.getRepository(ApiKey), { maxKeysPerAccount: 25 });
    for (const candidate of ['', 'foo', 'svc_test_short', `sk_live_${'a'.repeat(40)}`]) {
      expect(await offline.authenticate(candidate)).toBeNull();
    }
    await expect(offline.authenticate(`svc_test_${'a'.repeat(40)}`)).rejects.toThrow();
  });

  it('regenerates in place: same id and limits, new secret, old secret dead', async () => {
    const first = await keys.create(owner.accountId, { sandbox: true, monthlyWordLimit: 100 });
    const second = await keys.regenerate(owner, first.key.id);
    expect(second.key.id).toBe(first.key.id);
    expect(second.key.monthlyWordLimit).toBe(100);
    expect(second.key.regeneratedAt).toBeInstanceOf(Date);
    expect(second.secret).not.toBe(first.secret);
    expect(second.secret.startsWith('svc_test_')).toBe(true);
    expect(await keys.authenticate(first.secret)).toBeNull();
    expect((await keys.authenticate(second.secret))?.keyId).toBe(first.key.id);
  });

  it('revokes once and for all', async () => {
    const { key, secret } = await keys.create(owner.accountId, { sandbox: true });
    const revoked = await keys.revoke(owner, key.id);
    expect(revoked.revokedAt).toBeInstanceOf(Date);
    expect(await keys.authenticate(secret)).toBeNull();
    expect((await keys.revoke(owner, key.id)).revokedAt).toEqual(revoked.revokedAt);
    await expectNotFound(keys.regenerate(owner, key.id));
    await expectNotFound(keys.updateLimits(owner, key.id, { monthlyWordLimit: 1 }));
  });

  it('changes only the limits it is given, and null removes one', async () => {
    const { key, secret } = await keys.create(owner.accountId, { sandbox: true, monthlyWordLimit: 100, rateLimitPerMinute: 30 });
    expect(await keys.updateLimits(owner, key.id, { rateLimitPerMinute: 5 })).toMatchObject({ monthlyWordLimit: 100, rateLimitPerMinute: 5 });
    expect(await keys.updateLimits(owner, key.id, { monthlyWordLimit: null })).toMatchObject({ monthlyWordLimit: null, rateLimitPerMinute: 5 });
    expect(await keys.authenticate(secret)).toMatchObject({ monthlyWordLimit: null, rateLimitPerMinute: 5 });
  });

  it('keeps accounts, and sandbox callers, to their own keys', async () => {
    const live = await keys.create(owner.accountId, { sandbox: false });
    const sandbox = await keys.create(owner.accountId, { sandbox: true });
    const stranger: KeyOwner = { accountId: randomUUID(), sandboxOnly: false };
    await expectNotFound(keys.get(stranger, live.key.id));
    await expectNotFound(keys.revoke(stranger, live.key.id));
    await expectNotFound(keys.get(owner, 'not-a-uuid'));

    const sandboxOwner = { ...owner, sandboxOnly: true };
    await expectNotFound(keys.regenerate(sandboxOwner, live.key.id));
    const visible = (await keys.list(sandboxOwner)).map((k) => k.id);
    expect(visible).toContain(sandbox.key.id);
    expect(visible).not.toContain(live.key.id);
    expect((await keys.list(owner)).map((k) => k.id)).toEqual(expect.arrayContaining([live.key.id, sandbox.key.id]));
  });

  it('lets exactly the cap of keys into an account when more are created at once, and counts only keys not revoked', async () => {
    const accountId = (await new AccountService(dataSource.getRepository(Account)).create(`auth-cap-${randomUUID()}`, { activated: true })).id;
    const capped = new ApiKeyService(dataSource.getRepository(ApiKey), { maxKeysPerAccount: 3 });
    const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => capped.create(accountId, { sandbox: i % 2 === 0 })));
    const created = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.key] : []));
    expect(created).toHaveLength(3);
    for (const r of results) {
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ message: expect.stringMatching(/^An account holds at most 3 keys that are not revoked/) });
    }
    await capped.revoke({ accountId, sandboxOnly: false }, created[0].id);
    expect((await capped.create(accountId, { sandbox: true })).key.accountId).toBe(accountId);
  });

  it("refuses key limits above the account's ceilings with 422 naming them", async () => {
    const accounts = new AccountService(dataSource.getRepository(Account));
    const account = await accounts.setLimits(await accounts.create(`auth-ceiling-${randomUUID()}`, { activated: true }), { monthlyWordLimit: 1000, rateLimitPerMinute: 20 });
    const refusal = (promise: Promise<unknown>) => expect(promise).rejects.toSatisfy((e) => e instanceof ApiError && e.getStatus() === 422);
    await refusal(keys.create(account.id, { sandbox: false, monthlyWordLimit: 1001 }));
    const { key, secret } = await keys.create(account.id, { sandbox: false, monthlyWordLimit: 1000, rateLimitPerMinute: 20 });
    const owner = { accountId: account.id, sandboxOnly: false };
    await expect(keys.updateLimits(owner, key.id, { rateLimitPerMinute: 21 })).rejects.toThrow("rate_limit_per_minute: 21 is above the account's ceiling of 20 requests per minute");
    expect(await keys.updateLimits(owner, key.id, { monthlyWordLimit: null })).toMatchObject({ monthlyWordLimit: null });
    expect((await keys.authenticate(secret))?.account).toEqual({ monthlyWordLimit: 1000, rateLimitPerMinute: 20 });
  });

  it('gives a live key only to an activated account, and refuses it with 403 until then', async () => {
    const accounts = new AccountService(dataSource.getRepository(Account));
    const account = await accounts.create(`auth-sandbox-${randomUUID()}`, { activated: false });
    await expect(keys.create(account.id, { sandbox: false })).rejects.toSatisfy(
      (e) => e instanceof ApiError && e.getStatus() === 403 && /not activated for production use/.test(e.message),
    );
    expect((await keys.create(account.id, { sandbox: true })).key.sandbox).toBe(true);
    const activated = await accounts.activate(account);
    expect(activated.activatedAt).toBeInstanceOf(Date);
    expect((await accounts.activate(activated)).activatedAt).toEqual(activated.activatedAt);
    expect((await keys.create(account.id, { sandbox: false })).key.sandbox).toBe(false);
  });
});
