import { createTestKey, testEnv, type TestKey, type TestKeyOptions } from '@platform/testing';
import pg from 'pg';

/**
 * Test keys whose accounts' jobs are deleted afterwards: workers of other test files share the
 * database, and must be left no jobs of these tests to translate.
 */
export function batchAccounts() {
  const accounts: string[] = [];
  return {
    async createTestKey(options?: TestKeyOptions): Promise<TestKey> {
      const key = await createTestKey(options);
      accounts.push(key.accountId);
      return key;
    },
    sql: query,
    deleteJobs: () => query('DELETE FROM translation.batch_jobs WHERE account_id = ANY($1)', [accounts]),
  };
}

async function query<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: testEnv.databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
