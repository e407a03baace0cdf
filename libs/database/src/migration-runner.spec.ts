import { createScratchDatabase, type ScratchDatabase } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translationDomain } from './domains';
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

  it('reverts the newest migration and applies it again', async () => {
    const newest = translationDomain.migrations.at(-1)!.name;
    await revertLastMigration(url, translationDomain);
    const recorded = (await scratch.query<{ name: string }>('SELECT name FROM translation.translation_migrations')).map((r) => r.name);
    expect(recorded).not.toContain(newest);
    expect(await runMigrations(url, translationDomain)).toEqual([newest]);
  });
});
