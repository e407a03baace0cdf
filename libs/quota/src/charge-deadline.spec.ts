import { dataSourceOptions, runMigrations, translationDomain } from '@platform/database';
import { MetricsRegistry } from '@platform/service-kit';
import { createTestKey, type OwnDependency, startOwnPostgres, testPrincipal, type TestKey } from '@platform/testing';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WordQuotaService } from './word-quota.service';

const QUERY_TIMEOUT_MS = 1000;

/** Charges on a Postgres of the test's own, which it freezes (SIGSTOP) and stops. */
describe('WordQuotaService when Postgres hangs or goes away around a charge', () => {
  let postgres: OwnDependency;
  let dataSource: DataSource;
  let quota: WordQuotaService;

  beforeAll(async () => {
    postgres = await startOwnPostgres();
    await runMigrations(postgres.url, translationDomain);
    dataSource = new DataSource(
      dataSourceOptions(postgres.url, translationDomain, 2, { statementTimeoutMs: 0, lockTimeoutMs: 0, idleInTransactionTimeoutMs: 0, queryTimeoutMs: QUERY_TIMEOUT_MS }),
    );
    await dataSource.initialize();
    quota = new WordQuotaService(dataSource, { sandboxMonthlyWords: 50_000 }, new MetricsRegistry());
  }, 120_000);
  afterAll(async () => {
    await dataSource?.destroy();
    await postgres?.destroy();
  });

  const newKey = () => createTestKey({ databaseUrl: postgres.url, sandbox: false });
  const charge = (key: TestKey, reference?: string) => quota.charge({ key: testPrincipal(key), words: 7, costCents: 1, reference });
  const ledger = (key: TestKey) => dataSource.query<{ words: string; refunded: boolean }[]>('SELECT words, refunded_at IS NOT NULL AS refunded FROM translation.quota_charges WHERE key_id = $1', [key.keyId]);

  it('does not make a charge the database gets to only after the request gave up on it', async () => {
    const key = await newKey();
    // The pool's connection is open when the server freezes: the charge reaches the server and waits there.
    expect(await quota.usage(key.keyId)).toMatchObject({ words: 0 });
    postgres.freeze();
    try {
      await expect(charge(key)).rejects.toThrow('Query read timeout');
    } finally {
      postgres.thaw();
    }
    // The server goes on and runs what it received meanwhile; the charge finds its deadline past.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await ledger(key)).toEqual([]);
    expect(await quota.usage(key.keyId)).toMatchObject({ words: 0 });
  });

  it('makes a refund the database could not take at once as soon as it answers again', async () => {
    const key = await newKey();
    const { chargeId } = await charge(key);
    await postgres.stop();
    try {
      await quota.refundEventually({ chargeId });
    } finally {
      await postgres.start();
    }
    await expect.poll(() => ledger(key), { timeout: 20_000, interval: 500 }).toEqual([{ words: '7', refunded: true }]);
    expect(await quota.usage(key.keyId)).toMatchObject({ words: 0 });
  });

  it('keeps a charge that is due after all', async () => {
    const key = await newKey();
    await charge(key, `test:${key.keyId}`);
    await quota.refundEventually({ reference: `test:${key.keyId}` }, async () => true);
    expect(await ledger(key)).toEqual([{ words: '7', refunded: false }]);
  });
});
