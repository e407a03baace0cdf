import { imageDomain, runMigrations, translationDomain } from '@platform/database';
import pg from 'pg';
import { testEnv } from './test-env';

/** Once per test run: make sure the test database exists and carries every migration. */
export default async function setup(): Promise<void> {
  const url = new URL(testEnv.databaseUrl);
  const database = url.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  } finally {
    await client.end();
  }
  await runMigrations(testEnv.databaseUrl, translationDomain);
  await runMigrations(testEnv.databaseUrl, imageDomain);
}
