import { dataSourceOptions, translationDomain } from '@platform/database';
import { ApiError } from '@platform/errors';
import { createTestKey, testEnv } from '@platform/testing';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WordQuotaService } from './word-quota.service';

describe('WordQuotaService', () => {
  let dataSource: DataSource;
  let quota: WordQuotaService;

  beforeAll(async () => {
    // A pool large enough that every concurrent charge below runs on its own connection.
    dataSource = new DataSource(dataSourceOptions(testEnv.databaseUrl, translationDomain, 32));
    await dataSource.initialize();
    quota = new WordQuotaService(dataSource, { sandboxMonthlyWords: 50_000 });
  });
  afterAll(() => dataSource.destroy());

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

  it('lets exactly the charges that fit through when 30 arrive at once', async () => {
    const { keyId } = await createTestKey();
    const results = await Promise.allSettled(Array.from({ length: 30 }, () => quota.charge({ keyId, words: 7, costCents: 1, limit: 100 })));

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
  });

  it('never passes the limit with concurrent charges of different sizes', async () => {
    const { keyId } = await createTestKey();
    const sizes = Array.from({ length: 40 }, (_, i) => (i % 9) + 1);
    const results = await Promise.allSettled(sizes.map((words) => quota.charge({ keyId, words, costCents: words, limit: 50 })));

    const charged = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.words] : []));
    const total = charged.reduce((a, b) => a + b, 0);
    expect(total).toBeLessThanOrEqual(50);
    expect((await quota.usage(keyId)).words).toBe(total);
    // Every refusal was a real one: the smallest refused charge did not fit what was left.
    const refusedSizes = sizes.filter((_, i) => results[i].status === 'rejected');
    if (refusedSizes.length > 0) expect(50 - total).toBeLessThan(Math.max(...refusedSizes));
  });

  it('refuses a charge that does not fit, writes nothing and says how many words remain', async () => {
    const { keyId } = await createTestKey();
    await quota.charge({ keyId, words: 6, costCents: 1, limit: 10 });

    const error = await refusal(quota.charge({ keyId, words: 5, costCents: 1, limit: 10 }));
    expect(error.getStatus()).toBe(402);
    expect(error.message).toContain('needs 5 words, 4 of 10 remain');
    expect(await quota.usage(keyId)).toMatchObject({ words: 6, costCents: 1 });
    expect(await ledger(keyId)).toHaveLength(1);

    const first = await refusal(quota.charge({ keyId: (await createTestKey()).keyId, words: 11, costCents: 1, limit: 10 }));
    expect(first.message).toContain('10 of 10 remain');
  });

  it('refunds exactly what a charge took, once', async () => {
    const { keyId } = await createTestKey();
    const first = await quota.charge({ keyId, words: 30, costCents: 3, limit: 100 });
    await quota.charge({ keyId, words: 20, costCents: 2, limit: 100 });

    expect(await quota.refund({ chargeId: first.chargeId })).toBe(true);
    expect(await quota.usage(keyId)).toMatchObject({ words: 20, costCents: 2 });
    expect(await quota.refund({ chargeId: first.chargeId })).toBe(false);
    expect(await quota.usage(keyId)).toMatchObject({ words: 20, costCents: 2 });
    expect((await ledger(keyId)).map((c) => c.refunded)).toEqual([true, false]);

    // The refunded words are available again.
    await quota.charge({ keyId, words: 80, costCents: 8, limit: 100 });
    expect((await quota.usage(keyId)).words).toBe(100);
  });

  it('refunds only once when two refunds race', async () => {
    const { keyId } = await createTestKey();
    const receipt = await quota.charge({ keyId, words: 12, costCents: 1, limit: null, reference: `race-${keyId}` });
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
    const { keyId } = await createTestKey();
    const reference = `batch:${keyId}`;
    const receipts = await Promise.all(Array.from({ length: 8 }, () => quota.charge({ keyId, words: 40, costCents: 5, limit: 100, reference })));

    expect(new Set(receipts.map((r) => r.chargeId)).size).toBe(1);
    expect(receipts[0]).toMatchObject({ words: 40, costCents: 5 });
    expect(await quota.usage(keyId)).toMatchObject({ words: 40, costCents: 5 });

    // A repeat after a refund is still the first charge, not a new one.
    expect(await quota.refund({ reference })).toBe(true);
    expect(await quota.charge({ keyId, words: 40, costCents: 5, limit: 100, reference })).toEqual(receipts[0]);
    expect(await quota.usage(keyId)).toMatchObject({ words: 0, costCents: 0 });
  });

  it('lets a refused charge be retried with the same reference once words are free', async () => {
    const { keyId } = await createTestKey();
    const reference = `retry:${keyId}`;
    await refusal(quota.charge({ keyId, words: 20, costCents: 1, limit: 10, reference }));
    const receipt = await quota.charge({ keyId, words: 20, costCents: 1, limit: 30, reference });
    expect(receipt.words).toBe(20);
  });

  it('keeps each UTC calendar month separate', async () => {
    const { keyId } = await createTestKey();
    const endOfJanuary = new Date('2031-01-31T23:59:59.999Z');
    const startOfFebruary = new Date('2031-02-01T00:00:00.000Z');

    const january = await quota.charge({ keyId, words: 10, costCents: 1, limit: 10, at: endOfJanuary });
    expect(january.month).toBe('2031-01');
    await refusal(quota.charge({ keyId, words: 1, costCents: 1, limit: 10, at: endOfJanuary }));
    const february = await quota.charge({ keyId, words: 10, costCents: 1, limit: 10, at: startOfFebruary });
    expect(february.month).toBe('2031-02');

    // A refund gives words back to the month the charge belongs to.
    await quota.refund({ chargeId: january.chargeId });
    expect(await quota.usage(keyId, endOfJanuary)).toEqual({ month: '2031-01', words: 0, costCents: 0 });
    expect(await quota.usage(keyId, startOfFebruary)).toEqual({ month: '2031-02', words: 10, costCents: 1 });
  });

  it('reports zero usage for a key that has not translated this month', async () => {
    const { keyId } = await createTestKey();
    expect(await quota.usage(keyId)).toEqual({ month: new Date().toISOString().slice(0, 7), words: 0, costCents: 0 });
  });

  it('rejects impossible amounts before touching the database', async () => {
    const { keyId } = await createTestKey();
    await expect(quota.charge({ keyId, words: -1, costCents: 0, limit: null })).rejects.toThrow(RangeError);
    await expect(quota.charge({ keyId, words: 1.5, costCents: 0, limit: null })).rejects.toThrow(RangeError);
    expect(await ledger(keyId)).toHaveLength(0);
  });

  it('applies the sandbox test quota on top of the key limit', () => {
    expect(quota.limitFor({ sandbox: true, monthlyWordLimit: null })).toBe(50_000);
    expect(quota.limitFor({ sandbox: true, monthlyWordLimit: 1_000_000 })).toBe(50_000);
    expect(quota.limitFor({ sandbox: true, monthlyWordLimit: 200 })).toBe(200);
    expect(quota.limitFor({ sandbox: false, monthlyWordLimit: null })).toBeNull();
    expect(quota.limitFor({ sandbox: false, monthlyWordLimit: 1_000_000 })).toBe(1_000_000);
  });
});
