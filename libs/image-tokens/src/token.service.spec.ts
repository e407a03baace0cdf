import { dataSourceOptions, imageDomain } from '@platform/database';
import { MetricsRegistry } from '@platform/service-kit';
import { pollUntil, testEnv } from '@platform/testing';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashAccessToken } from './access-token.util';
import { randomUUID } from 'node:crypto';
import { recentMonths, TokenService, usageMonth } from './token.service';

describe('TokenService', () => {
  let dataSource: DataSource;
  let tokens: TokenService;
  const metrics = new MetricsRegistry();
  const refused = async () => (await metrics.registry.getSingleMetric('quota_refusals_total')!.get()).values.find((v) => v.labels.limit === 'token_monthly_conversions')?.value;

  beforeAll(async () => {
    // A pool large enough that every concurrent consume below runs on its own connection.
    dataSource = new DataSource(dataSourceOptions(testEnv.databaseUrl, imageDomain, 24));
    await dataSource.initialize();
    tokens = new TokenService(dataSource, { free: 500, starter: 10_000, pro: 50_000, business: 250_000 }, metrics);
  });
  afterAll(() => dataSource.destroy());

  it('stores only the hash and hint of a new token and authenticates it with the plan limit', async () => {
    const { token, subscriptionId } = await tokens.create('starter');
    expect(token).toMatch(/^img_[0-9A-Za-z]{40}$/);
    const [row] = await dataSource.query('SELECT token_hash, token_hint FROM image.access_tokens WHERE subscription_id = $1', [subscriptionId]);
    expect(row).toEqual({ token_hash: hashAccessToken(token), token_hint: token.slice(-4) });
    expect(await tokens.authenticate(token)).toEqual({ subscriptionId, plan: 'starter', active: true, limit: 10_000 });
  });

  it('records when a token was last used, once a minute at most, and not for tokens that are refused', async () => {
    const { token, subscriptionId } = await tokens.create('free');
    const lastUse = async () => (await dataSource.query('SELECT last_used_at FROM image.access_tokens WHERE subscription_id = $1', [subscriptionId]))[0].last_used_at;
    expect(await lastUse()).toBeNull();
    await tokens.status(`img_${'y'.repeat(40)}`);
    const before = Date.now();
    await tokens.status(token);
    const first = await pollUntil(lastUse, (at) => at !== null, { what: 'last_used_at' });
    expect(first.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    await tokens.status(token);
    expect(await lastUse()).toEqual(first);
  });

  it('applies a limit override and refuses unknown, malformed and revoked tokens', async () => {
    const { token, subscriptionId } = await tokens.create('free', 3);
    expect(await tokens.status(token)).toMatchObject({ limit: 3, usage: 0, month: usageMonth() });
    expect(await tokens.authenticate(`img_${'x'.repeat(40)}`)).toBeNull();
    expect(await tokens.authenticate('not a token')).toBeNull();
    await dataSource.query('UPDATE image.access_tokens SET revoked_at = now() WHERE subscription_id = $1', [subscriptionId]);
    expect(await tokens.authenticate(token)).toBeNull();
  });

  it('lets exactly 10 of 20 concurrent conversions through a limit of 10', async () => {
    const { subscriptionId } = await tokens.create('free', 10);
    const results = await Promise.all(Array.from({ length: 20 }, () => tokens.consume(subscriptionId, 10)));
    const accepted = results.filter((r) => r !== null);
    expect(accepted).toHaveLength(10);
    expect(accepted.map((r) => r!.usage).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const [usage] = await dataSource.query('SELECT conversions FROM image.monthly_usage WHERE subscription_id = $1', [subscriptionId]);
    expect(usage.conversions).toBe(10);
  });

  it('refuses a batch larger than what remains, and a first conversion over a limit of 0, counting each refusal', async () => {
    const before = (await refused())!;
    const small = await tokens.create('pro', 5);
    expect(await tokens.consume(small.subscriptionId, 5, 4)).toEqual({ month: usageMonth(), usage: 4 });
    expect(await tokens.consume(small.subscriptionId, 5, 2)).toBeNull();
    const none = await tokens.create('pro', 0);
    expect(await tokens.consume(none.subscriptionId, 0)).toBeNull();
    expect(await refused()).toBe(before + 2);
  });

  it('gives released conversions back, never below zero', async () => {
    const { token, subscriptionId } = await tokens.create('business', 2);
    const first = await tokens.consume(subscriptionId, 2, 2);
    expect(await tokens.consume(subscriptionId, 2)).toBeNull();
    await tokens.release(subscriptionId, first!.month, 1);
    expect((await tokens.status(token))!.usage).toBe(1);
    await tokens.release(subscriptionId, first!.month, 5);
    expect((await tokens.status(token))!.usage).toBe(0);
  });

  it('rejects counts that are not non-negative integers', async () => {
    const { subscriptionId } = await tokens.create('free');
    await expect(tokens.consume(subscriptionId, 10, 1.5)).rejects.toThrow(RangeError);
    await expect(tokens.release(subscriptionId, usageMonth(), -1)).rejects.toThrow(RangeError);
  });

  it("links a subscription to an account, whose views alone then see it, and unlinks it", async () => {
    const account = randomUUID();
    const { subscriptionId } = await tokens.create('pro', 7);
    expect(await tokens.subscriptionsOf(account)).toEqual([]);
    expect(await tokens.link(subscriptionId, account)).toMatchObject({ id: subscriptionId, plan: 'pro', limit: 7, accountId: account, usage: 0 });
    expect((await tokens.subscriptionsOf(account)).map((s) => s.id)).toEqual([subscriptionId]);
    await expect(tokens.subscriptionOf(randomUUID(), subscriptionId)).rejects.toMatchObject({ status: 404 });
    expect(await tokens.link(subscriptionId, null)).toMatchObject({ accountId: null });
    expect(await tokens.subscriptionsOf(account)).toEqual([]);
    expect(await tokens.link(randomUUID(), account)).toBeNull();
    expect(await tokens.link('nope', account)).toBeNull();
  });

  it('lists the last months across a year boundary, oldest first', () => {
    expect(recentMonths(3, new Date('2027-02-28T23:59:59Z'))).toEqual(['2026-12', '2027-01', '2027-02']);
    expect(recentMonths(12, new Date('2026-11-23T00:00:00Z'))).toHaveLength(12);
    expect(recentMonths(12, new Date('2026-11-23T00:00:00Z'))[0]).toBe('2025-12');
  });
});
