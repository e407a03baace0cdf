import { QueueName } from '@platform/contracts';
import { runMigrations, translationDomain } from '@platform/database';
import { createScratchDatabase, createTestKey, leaseRedisDatabase, type TestKey, type TestKeyOptions } from '@platform/testing';
import Bull from 'bull';
import pg from 'pg';

/**
 * A database and a Redis database of their own. Every batch worker started against the shared
 * test database takes jobs of the one shared batches queue; tests that depend on which worker
 * translates a batch (a failing engine, a stopped worker) need their jobs out of other reach.
 */
export interface IsolatedStack {
  databaseUrl: string;
  redisUrl: string;
  /** Runs SQL against the isolated database. */
  sql<T extends pg.QueryResultRow = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  /** An account with one live key in the isolated database. */
  createKey(options?: TestKeyOptions): Promise<TestKey>;
  /** Moves every delayed (backing-off) batch job to waiting, so retries need not wait. */
  promoteDelayedJobs(): Promise<void>;
  destroy(): Promise<void>;
}

/** `redisUrl`: a Redis of the test's own (one it may kill) instead of a leased database of the shared one. */
export async function createIsolatedStack({ redisUrl }: { redisUrl?: string } = {}): Promise<IsolatedStack> {
  const database = await createScratchDatabase('platform_batches');
  const databaseUrl = database.url;
  await runMigrations(databaseUrl, translationDomain);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });

  const lease = redisUrl ? { url: redisUrl, release: async () => undefined } : await leaseRedisDatabase();
  const queue = new Bull(QueueName.Batches, lease.url);
  // Leftovers of an earlier run that stopped before cleaning up.
  await queue.obliterate({ force: true });

  return {
    databaseUrl,
    redisUrl: lease.url,
    sql: async (text, values) => (await pool.query(text, values)).rows,
    createKey: (options = {}) => createTestKey({ sandbox: false, rateLimitPerMinute: 10_000, ...options, databaseUrl }),
    async promoteDelayedJobs() {
      await Promise.all((await queue.getDelayed()).map((job) => job.promote().catch(() => undefined)));
    },
    async destroy() {
      await queue.obliterate({ force: true });
      await queue.close();
      await lease.release();
      await pool.end();
      await database.drop();
    },
  };
}
