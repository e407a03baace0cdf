import { createScratchDatabase, type ScratchDatabase } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageDomain, translationDomain } from './domains';
import { revertLastMigration, runMigrations } from './migration-runner';

/** A throwaway database, so migrating up and down never disturbs the shared test database. */
let scratch: ScratchDatabase;

const tables = async () =>
  (await scratch.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'translation' ORDER BY 1")).map((r) => r.table_name);

describe('migration runner', () => {
  let url: string;
  beforeAll(async () => {
    scratch = await createScratchDatabase('platform_migrations');
    url = scratch.url;
  });
  afterAll(() => scratch?.drop());

  it('applies every migration once, even when several replicas run it at the same time', async () => {
    const runs = await Promise.all([1, 2, 3].map(() => runMigrations(url, translationDomain)));
    expect(runs.flat()).toHaveLength(translationDomain.migrations.length);
    expect(await tables()).toEqual(expect.arrayContaining(['accounts', 'api_keys', 'key_usage', 'quota_charges', 'translation_migrations']));
    expect(await runMigrations(url, translationDomain)).toEqual([]);
  });

  it('reverts the newest migration once confirmed and applies it again', async () => {
    const newest = translationDomain.migrations.at(-1)!.name;
    expect(await revertLastMigration(url, translationDomain, { confirmed: true })).toMatchObject({ reverted: true, plan: { migration: newest } });
    const recorded = (await scratch.query<{ name: string }>('SELECT name FROM translation.translation_migrations')).map((r) => r.name);
    expect(recorded).not.toContain(newest);
    expect(await runMigrations(url, translationDomain)).toEqual([newest]);
  });

  it('names what a revert would drop, with row counts, and changes nothing without confirmation', async () => {
    await runMigrations(url, imageDomain);
    await scratch.query(`INSERT INTO image.subscriptions (plan) VALUES ('free'), ('pro')`);
    const applied = async () => (await scratch.query<{ name: string }>('SELECT name FROM image.image_migrations')).map((r) => r.name);
    expect(await revertLastMigration(url, imageDomain, { confirmed: true })).toEqual({
      reverted: true,
      plan: { migration: 'TokenLastUse1734300000000', destructive: true, destroys: ['column image.access_tokens.last_used_at'] },
    });
    expect(await revertLastMigration(url, imageDomain, { confirmed: true })).toEqual({
      reverted: true,
      plan: { migration: 'VariantFailures1733700000000', destructive: true, destroys: ['table image.variant_failures (0 rows)'] },
    });
    expect(await revertLastMigration(url, imageDomain, { confirmed: true })).toEqual({
      reverted: true,
      plan: { migration: 'SubscriptionAccounts1733420000000', destructive: true, destroys: ['column image.subscriptions.account_id'] },
    });
    const before = await applied();

    const refused = await revertLastMigration(url, imageDomain);
    expect(refused).toEqual({
      reverted: false,
      plan: {
        migration: 'Tokens1732500000000',
        destructive: true,
        destroys: ['table image.monthly_usage (0 rows)', 'table image.access_tokens (0 rows)', 'table image.subscriptions (2 rows)'],
      },
    });
    expect(await revertLastMigration(url, imageDomain, { confirmed: true, dryRun: true })).toMatchObject({ reverted: false });
    expect(await applied()).toEqual(before);
    expect(await scratch.query('SELECT plan FROM image.subscriptions')).toHaveLength(2);

    expect(await revertLastMigration(url, imageDomain, { confirmed: true })).toMatchObject({ reverted: true });
    expect(await scratch.query(`SELECT to_regclass('image.subscriptions') AS t`)).toEqual([{ t: null }]);
    expect(await revertLastMigration(url, imageDomain)).toEqual({ reverted: false, plan: { destructive: false } });
  });
});
