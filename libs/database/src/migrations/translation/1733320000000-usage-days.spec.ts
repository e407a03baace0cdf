import { createScratchDatabase, type ScratchDatabase } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translationDomain } from '../../domains';
import { revertLastMigration, runMigrations } from '../../migration-runner';
import { UsageDays1733320000000 } from './1733320000000-usage-days';

const MIGRATION = new UsageDays1733320000000().name;

/** Charges recorded before keys had days, rolled up into them. */
describe('migration UsageDays1733320000000', () => {
  let scratch: ScratchDatabase;
  let keys: string[];

  beforeAll(async () => {
    scratch = await createScratchDatabase('platform_usage_days_migration');
    await runMigrations(scratch.url, translationDomain);
    const applied = async () => (await scratch.query<{ name: string }>('SELECT name FROM translation.translation_migrations')).map((r) => r.name);
    while ((await applied()).includes(MIGRATION)) await revertLastMigration(scratch.url, translationDomain, { confirmed: true });

    const [{ id: account }] = await scratch.query<{ id: string }>(`INSERT INTO translation.accounts (name) VALUES ('days') RETURNING id`);
    keys = [];
    for (const hash of ['a', 'b']) {
      const [key] = await scratch.query<{ id: string }>(
        `INSERT INTO translation.api_keys (account_id, key_hash, key_hint, sandbox) VALUES ($1, $2, 'hint', false) RETURNING id`,
        [account, hash],
      );
      keys.push(key.id);
    }
    const charges: [string, string, number, number, boolean][] = [
      [keys[0], '2031-01-01T23:59:59.999Z', 10, 1, false],
      [keys[0], '2031-01-01T08:00:00Z', 5, 2, false],
      [keys[0], '2031-01-02T00:00:00Z', 7, 1, false],
      [keys[0], '2031-01-02T09:00:00Z', 100, 9, true],
      [keys[1], '2031-01-02T09:00:00Z', 3, 1, false],
    ];
    for (const [key, at, words, cents, refunded] of charges) {
      await scratch.query(
        `INSERT INTO translation.quota_charges (key_id, month, words, cost_cents, created_at, refunded_at) VALUES ($1, '2031-01', $2, $3, $4, $5)`,
        [key, words, cents, at, refunded ? at : null],
      );
    }
    expect(await runMigrations(scratch.url, translationDomain)).toContain(MIGRATION);
  });
  afterAll(() => scratch?.drop());

  it("adds up each key's charges per UTC day, leaving refunded ones out", async () => {
    const rows = await scratch.query(`SELECT key_id, day::text, words::int, cost_cents::int FROM translation.key_daily_usage ORDER BY key_id = $1 DESC, day`, [keys[0]]);
    expect(rows).toEqual([
      { key_id: keys[0], day: '2031-01-01', words: 15, cost_cents: 3 },
      { key_id: keys[0], day: '2031-01-02', words: 7, cost_cents: 1 },
      { key_id: keys[1], day: '2031-01-02', words: 3, cost_cents: 1 },
    ]);
  });

  it('names the table its revert drops', async () => {
    while ((await revertLastMigration(scratch.url, translationDomain, { dryRun: true })).plan.migration !== MIGRATION) {
      await revertLastMigration(scratch.url, translationDomain, { confirmed: true });
    }
    const { plan } = await revertLastMigration(scratch.url, translationDomain, { dryRun: true });
    expect(plan).toEqual({ migration: MIGRATION, destroys: ['table translation.key_daily_usage (3 rows)'], destructive: true });
  });
});
