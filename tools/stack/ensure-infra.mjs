#!/usr/bin/env node
// Makes sure PostgreSQL and Redis are up (starting or installing them where needed), prints
// their URLs and exits, leaving them running: CI's step before the tests, usable by hand too.
import { pathToFileURL } from 'node:url';
import { runMain } from './common.mjs';
import { ensurePostgres } from './postgres.mjs';
import { ensureRedis } from './redis.mjs';

/** Returns `{ postgres, redis }`, each with its `url` and a `stop` when this call started it. */
export async function ensureInfra(env = process.env) {
  const postgres = await ensurePostgres(env);
  const redis = await ensureRedis(env);
  return { postgres, redis };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  runMain(async () => {
    const { postgres, redis } = await ensureInfra();
    console.log(`DATABASE_URL=${postgres.url}`);
    console.log(`REDIS_URL=${redis.url}`);
  });
}
