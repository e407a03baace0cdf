import { testEnv } from '@platform/testing';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translationDomain } from './domains';
import { revertLastMigration, runMigrations } from './migration-runner';

/** A throwaway database, so migrating up and down never disturbs the shared test database. */
const name = `platform_migrations_${randomBytes(4).toString('hex')}`;
const url = Object.assign(new URL(testEnv.databaseUrl), { pathname: `/${name}` }).toString();

async function onServer<T>(database: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: Object.assign(new URL(testEnv.databaseUrl), { pathname: `/${database}` }).toString() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const tables = () =>
  onServer(name, async (c) => (await c.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'translation' ORDER BY 1")).rows.map((r) => r.table_name));

describe('migration runner', () => {
  beforeAll(() => onServer('postgres', (c) => c.query(`CREATE DATABASE "${name}"`)));
  afterAll(() => onServer('postgres', (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)));

  it('applies every migration once, even when several replicas run it at the same time', async () => {
    const runs = await Promise.all([1, 2, 3].map(() => runMigrations(url, translationDomain)));
    expect(runs.flat()).toHaveLength(translationDomain.migrations.length);
    expect(await tables()).toEqual(expect.arrayContaining(['accounts', 'api_keys', 'key_usage', 'quota_charges', 'translation_migrations']));
    expect(await runMigrations(url, translationDomain)).toEqual([]);
  });

  it('reverts the newest migration and applies it again', async () => {
    const newest = translationDomain.migrations.at(-1)!.name;
    await revertLastMigration(url, translationDomain);
    const recorded = await onServer(name, async (c) => (await c.query('SELECT name FROM translation.translation_migrations')).rows.map((r) => r.name));
    expect(recorded).not.toContain(newest);
    expect(await runMigrations(url, translationDomain)).toEqual([newest]);
  });
});
