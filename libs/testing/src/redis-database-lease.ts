import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { testEnv } from './test-env';

const LEASE_MS = 15 * 60_000;

export interface RedisDatabaseLease {
  url: string;
  release(): Promise<void>;
}

/**
 * Claims one of Redis' numbered databases 2 to 15 (the tests' own is 1) with a key that expires,
 * so parallel test files never share one and a crashed run frees its claim. A test whose jobs
 * must not be taken by another file's worker of the same queue runs on a leased database.
 */
export async function leaseRedisDatabase(): Promise<RedisDatabaseLease> {
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
