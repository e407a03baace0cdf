import { imageDomain, runMigrations, translationDomain } from '@platform/database';
import pg from 'pg';
import { startS3Server } from './s3-server';
import { testEnv } from './test-env';

/**
 * Once per test run: make sure the test database exists and carries every migration, and start
 * an S3 server unless TEST_S3_ENDPOINT names one. Vitest builds the environment of its test
 * processes after global setup, so they see TEST_S3_ENDPOINT; the returned function stops it.
 */
export default async function setup(): Promise<(() => Promise<void>) | void> {
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

  if (process.env.TEST_S3_ENDPOINT) return;
  const s3 = await startS3Server();
  process.env.TEST_S3_ENDPOINT = s3.endpoint;
  return s3.stop;
}
