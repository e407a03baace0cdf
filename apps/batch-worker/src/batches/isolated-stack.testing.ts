import { QueueName } from '@platform/contracts';
import { runMigrations, translationDomain } from '@platform/database';
import { createTestKey, testEnv, type TestKey, type TestKeyOptions } from '@platform/testing';
import Bull from 'bull';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const LEASE_MS = 15 * 60_000;

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

export async function createIsolatedStack(): Promise<IsolatedStack> {
  const name = `platform_batches_${randomBytes(4).toString('hex')}`;
  const databaseUrl = Object.assign(new URL(testEnv.databaseUrl), { pathname: `/${name}` }).toString();
  await onServer((client) => client.query(`CREATE DATABASE "${name}"`));
  await runMigrations(databaseUrl, translationDomain);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });

  const lease = await leaseRedisDatabase();
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
      await onServer((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

async function onServer(work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: Object.assign(new URL(testEnv.databaseUrl), { pathname: '/postgres' }).toString() });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Claims one of Redis' numbered databases 2 to 15 (the tests' own is 1) with a key that expires,
 * so parallel test files never share one and a crashed run frees its claim.
 */
async function leaseRedisDatabase(): Promise<{ url: string; release: () => Promise<void> }> {
  const redis = new Redis(testEnv.redisUrl);
  const token = randomBytes(8).toString('hex');
  try {
    for (let db = 2; db <= 15; db++) {
      const lease = `test:redis-database-lease:${db}`;
      if ((await redis.set(lease, token, 'PX', LEASE_MS, 'NX')) !== 'OK') continue;
      return {
        url: Object.assign(new URL(testEnv.redisUrl), { pathname: `/${db}` }).toString(),
        release: async () => {
          const owner = new Redis(testEnv.redisUrl);
          try {
            if ((await owner.get(lease)) === token) await owner.del(lease);
          } finally {
            owner.disconnect();
          }
        },
      };
    }
    throw new Error('every Redis database from 2 to 15 is leased by another test run');
  } finally {
    redis.disconnect();
  }
}
