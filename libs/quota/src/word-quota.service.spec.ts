import { dataSourceOptions, translationDomain } from '@platform/database';
import { ApiError } from '@platform/errors';
import { MetricsRegistry } from '@platform/service-kit';
import { createTestKey, testEnv, testPrincipal, type TestKey } from '@platform/testing';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LimitedKey } from './monthly-limit';
import { WordQuotaService } from './word-quota.service';

describe('WordQuotaService', () => {
  let dataSource: DataSource;
  let quota: WordQuotaService;
  const metrics = new MetricsRegistry();
  const refusals = async () =>
    Object.fromEntries((await metrics.registry.getSingleMetric('quota_refusals_total')!.get()).values.map((v) => [v.labels.limit, v.value]));

  beforeAll(async () => {
    // A pool large enough that every concurrent charge below runs on its own connection.
    dataSource = new DataSource(dataSourceOptions(testEnv.databaseUrl, translationDomain, 32));
    await dataSource.initialize();
    quota = new WordQuotaService(dataSource, { sandboxMonthlyWords: 50_000 }, metrics);
  });
  afterAll(() => dataSource.destroy());

  /** The key held to `limit` words a month, in an account without a ceiling. */
  const limited = (key: TestKey, limit: number | null): LimitedKey => testPrincipal(key, { monthlyWordLimit: limit });

  const ledger = async (keyId: string) =>
    dataSource.query<{ words: string; refunded: boolean }[]>(
      'SELECT words, refunded_at IS NOT NULL AS refunded FROM translation.quota_charges WHERE key_id = $1 ORDER BY created_at',
      [keyId],
    );

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.fail('the charge was accepted'),
      (error: unknown) => {
        expect(error).toBeInstanceOf(ApiError);
        return error as ApiError;
      },
    );

  it('lets exactly the charges that fit through when 30 arrive at once, counting the refusals by limit', async () => {
    const before = await refusals();
    const owner = await createTestKey({ sandbox: false });
    const { keyId } = owner;
    const results = await Promise.allSettled(Array.from({ length: 30 }, () => quota.charge({ key: limited(owner, 100), words: 7, costCents: 1 })));

    const accepted = results.filter((r) => r.status === 'fulfilled');
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(accepted).toHaveLength(14);
    expect(refused).toHaveLength(16);
    for (const error of refused) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).getStatus()).toBe(402);
      expect((error as ApiError).code).toBe('quota_exceeded');
    }
    expect(await quota.usage(keyId)).toMatchObject({ words: 98, costCents: 14 });
    expect(await ledger(keyId)).toHaveLength(14);
    expect(await refusals()).toEqual({ ...before, key_monthly_words: before.key_monthly_words + 16 });
  });

  it('never passes the limit with concurrent charges of different sizes', async () => {
    const owner = await createTestKey({ sandbox: false });
    const { keyId } = owner;
    const sizes = Array.from({ length: 40 }, (_, i) => (i % 9) + 1);
    const results = await Promise.allSettled(sizes.map((words) => quota.charge({ key: limited(owner, 50), words, costCents: words })));

    const charged = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.words] : []));
    const total = charged.reduce((a, b) => a + b, 0);
    expect(total).toBeLessThanOrEqual(50);
    expect((await quota.usage(keyId)).words).toBe(total);
    // Every refusal was a real one: the smallest refused charge did not fit what was left.
    const refusedSizes = sizes.filter((_, i) => results[i].status === 'rejected');
    if (refusedSizes.length > 0) expect(50 - total).toBeLessThan(Math.max(...refusedSizes));
  });

  it('refuses a charge that does not fit, writes nothing and says how many words remain', async () => {
    const owner = await createTestKey({ sandbox: false });
    const { keyId } = owner;
    await quota.charge({ key: limited(owner, 10), words: 6, costCents: 1 });

    const error = await refusal(quota.charge({ key: limited(owner, 10), words: 5, costCents: 1 }));
    expect(error.getStatus()).toBe(402);
    expect(error.message).toContain('needs 5 words, 4 of 10 remain');
    expect(await quota.usage(keyId)).toMatchObject({ words: 6, costCents: 1 });
    expect(await ledger(keyId)).toHaveLength(1);

    const first = await refusal(quota.charge({ key: limited(await createTestKey({ sandbox: false }), 10), words: 11, costCents: 1 }));
    expect(first.message).toContain('10 of 10 remain');
  });

  it('refunds exactly what a charge took, once', async () => {
    const owner = await createTestKey({ sandbox: false });
    const { keyId } = owner;
    const first = await quota.charge({ key: limited(owner, 100), words: 30, costCents: 3 });
    await quota.charge({ key: limited(owner, 100), words: 20, costCents: 2 });

    expect(await quota.refund({ chargeId: first.chargeId })).toBe(true);
    expect(await quota.usage(keyId)).toMatchObject({ words: 20, costCents: 2 });
    expect(await quota.refund({ chargeId: first.chargeId })).toBe(false);
    expect(await quota.usage(keyId)).toMatchObject({ words: 20, costCents: 2 });
    expect((await ledger(keyId)).map((c) => c.refunded)).toEqual([true, false]);

    // The refunded words are available again.
    await quota.charge({ key: limited(owner, 100), words: 80, costCents: 8 });
    expect((await quota.usage(keyId)).words).toBe(100);
  });

  it('refunds only once when two refunds race', async () => {
    const owner = await createTestKey({ sandbox: false });
    const { keyId } = owner;
    const receipt = await quota.charge({ key: limited(owner, null), words: 12, costCents: 1, reference: `race-${keyId}` });
    const outcomes = await Promise.all([
      quota.refund({ chargeId: receipt.chargeId }),
      quota.refund({ reference: `race-${keyId}` }),
      quota.refund({ chargeId: receipt.chargeId }),
    ]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await quota.usage(keyId)).toMatchObject({ words: 0, costCents: 0 });
  });

  it('treats an unknown charge or reference as nothing to refund', async () => {
    expect(await quota.refund({ chargeId: 'not-a-uuid' })).toBe(false);
    expect(await quota.refund({ chargeId: '00000000-0000-4000-8000-000000000000' })).toBe(false);
    expect(await quota.refund({ reference: `missing-${Date.now()}` })).toBe(false);
  });

  it('charges a reference once and returns the first receipt on every repeat', async () => {
    const owner = await createTestKey({ sandbox: false });
    const { keyId } = owner;
    const reference = `batch:${keyId}`;
    const receipts = await Promise.all(Array.from({ length: 8 }, () => quota.charge({ key: limited(owner, 100), words: 40, costCents: 5, reference })));

    expect(new Set(receipts.map((r) => r.chargeId)).size).toBe(1);
    expect(receipts[0]).toMatchObject({ words: 40, costCents: 5 });
    expect(await quota.usage(keyId)).toMatchObject({ words: 40, costCents: 5 });

    // A repeat after a refund is still the first charge, not a new one.
    expect(await quota.refund({ reference })).toBe(true);
    expect(await quota.charge({ key: limited(owner, 100), words: 40, costCents: 5, reference })).toEqual(receipts[0]);
    expect(await quota.usage(keyId)).toMatchObject({ words: 0, costCents: 0 });
  });

  it('lets a refused charge be retried with the same reference once words are free', async () => {
    const owner = await createTestKey({ sandbox: false });
    const { keyId } = owner;
    const reference = `retry:${keyId}`;
    await refusal(quota.charge({ key: limited(owner, 10), words: 20, costCents: 1, reference }));
    const receipt = await quota.charge({ key: limited(owner, 30), words: 20, costCents: 1, reference });
    expect(receipt.words).toBe(20);
  });

  it('keeps each UTC calendar month separate', async () => {
    const owner = await createTestKey({ sandbox: false });
    const { keyId } = owner;
    const endOfJanuary = new Date('2031-01-31T23:59:59.999Z');
    const startOfFebruary = new Date('2031-02-01T00:00:00.000Z');

    const january = await quota.charge({ key: limited(owner, 10), words: 10, costCents: 1, at: endOfJanuary });
    expect(january.month).toBe('2031-01');
    await refusal(quota.charge({ key: limited(owner, 10), words: 1, costCents: 1, at: endOfJanuary }));
    const february = await quota.charge({ key: limited(owner, 10), words: 10, costCents: 1, at: startOfFebruary });
    expect(february.month).toBe('2031-02');

    // A refund gives words back to the month the charge belongs to.
    await quota.refund({ chargeId: january.chargeId });
    expect(await quota.usage(keyId, endOfJanuary)).toEqual({ month: '2031-01', words: 0, costCents: 0 });
    expect(await quota.usage(keyId, startOfFebruary)).toEqual({ month: '2031-02', words: 10, costCents: 1 });
  });

  it('reports zero usage for a key that has not translated this month', async () => {
    const owner = await createTestKey({ sandbox: false });
    const { keyId } = owner;
    expect(await quota.usage(keyId)).toEqual({ month: new Date().toISOString().slice(0, 7), words: 0, costCents: 0 });
  });

  it('rejects impossible amounts before touching the database', async () => {
    const owner = await createTestKey({ sandbox: false });
    const { keyId } = owner;
    await expect(quota.charge({ key: limited(owner, null), words: -1, costCents: 0 })).rejects.toThrow(RangeError);
    await expect(quota.charge({ key: limited(owner, null), words: 1.5, costCents: 0 })).rejects.toThrow(RangeError);
    expect(await ledger(keyId)).toHaveLength(0);
  });

  it('holds a key to its own limit and to its account in its mode', () => {
    const account = (monthlyWordLimit: number | null) => ({ monthlyWordLimit, rateLimitPerMinute: null });
    expect(quota.limitsFor({ sandbox: true, monthlyWordLimit: null, account: account(null) })).toEqual({ key: null, account: 50_000, accountKind: 'sandbox-quota' });
    expect(quota.limitsFor({ sandbox: true, monthlyWordLimit: 1_000_000, account: account(null) })).toEqual({ key: 1_000_000, account: 50_000, accountKind: 'sandbox-quota' });
    expect(quota.limitsFor({ sandbox: true, monthlyWordLimit: 200, account: account(900) })).toEqual({ key: 200, account: 900, accountKind: 'account-ceiling' });
    expect(quota.limitsFor({ sandbox: false, monthlyWordLimit: null, account: account(null) })).toEqual({ key: null, account: null, accountKind: 'account-ceiling' });
    expect(quota.limitsFor({ sandbox: false, monthlyWordLimit: 500, account: account(100_000) })).toEqual({ key: 500, account: 100_000, accountKind: 'account-ceiling' });
  });

  describe('account level', () => {
    const inAccount = async (accountId: string | undefined, sandbox: boolean, keyLimit: number | null, ceiling: number | null): Promise<LimitedKey> => {
      return testPrincipal(await createTestKey({ sandbox, accountId }), { monthlyWordLimit: keyLimit, account: { monthlyWordLimit: ceiling } });
    };
    const accountWords = async (key: LimitedKey) => (await quota.accountUsage(key)).words;

    it('holds all sandbox keys of an account to one sandbox quota, whatever their number', async () => {
      const small = new WordQuotaService(dataSource, { sandboxMonthlyWords: 100 }, new MetricsRegistry());
      const first = await inAccount(undefined, true, null, null);
      const keys = [first, await inAccount(first.accountId, true, null, null), await inAccount(first.accountId, true, 10_000, null)];
      const results = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => small.charge({ key: keys[i % 3], words: 7, costCents: 1 })));

      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(14);
      for (const r of results) if (r.status === 'rejected') expect((r.reason as ApiError).message).toMatch(/^The account's sandbox quota is reached/);
      expect(await accountWords(first)).toBe(98);
      // A live key of the same account is another world with its own total.
      const live = await inAccount(first.accountId, false, null, null);
      await small.charge({ key: live, words: 500, costCents: 1 });
      expect(await accountWords(first)).toBe(98);
    });

    it('never passes the account ceiling nor any key limit when keys charge at once', async () => {
      const a = await inAccount(undefined, false, 40, 100);
      const b = await inAccount(a.accountId, false, null, 100);
      const c = await inAccount(a.accountId, false, 60, 100);
      const keys = [a, b, c];
      const results = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => quota.charge({ key: keys[i % 3], words: 5, costCents: 1 })));

      const usages = await Promise.all(keys.map((key) => quota.usage(key.keyId)));
      expect(usages[0].words).toBeLessThanOrEqual(40);
      expect(usages[2].words).toBeLessThanOrEqual(60);
      expect(usages.reduce((sum, u) => sum + u.words, 0)).toBe(100);
      expect(await accountWords(a)).toBe(100);
      const messages = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as ApiError).message] : []));
      expect(messages).toHaveLength(40);
      expect(messages.every((m) => /^The account's monthly ceiling is reached|^The key's monthly word limit is reached/.test(m))).toBe(true);
      expect(messages.some((m) => m.startsWith("The account's monthly ceiling is reached (all its live keys together)"))).toBe(true);
    });

    it('names the key limit when the key refuses, and leaves the account untouched', async () => {
      const key = await inAccount(undefined, false, 10, 1000);
      const error = await refusal(quota.charge({ key, words: 11, costCents: 1 }));
      expect(error.getStatus()).toBe(402);
      expect(error.message).toMatch(/^The key's monthly word limit is reached: this request needs 11 words, 10 of 10 remain/);
      expect(await accountWords(key)).toBe(0);
    });

    it('gives refunded words back to the account too', async () => {
      const key = await inAccount(undefined, false, null, 50);
      const receipt = await quota.charge({ key, words: 50, costCents: 1 });
      await refusal(quota.charge({ key, words: 1, costCents: 1 }));
      expect(await quota.refund({ chargeId: receipt.chargeId })).toBe(true);
      expect(await accountWords(key)).toBe(0);
      await quota.charge({ key, words: 50, costCents: 1 });
    });
  });
});
