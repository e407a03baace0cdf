#!/usr/bin/env node
// `npm run migrate` / `npm run migrate:revert [-- --yes]`: applies, or reverts the last of, the
// migrations of every app that owns a schema, against DATABASE_URL (default: the local cluster).
import { log, runMain, StackError } from './common.mjs';
import { APPS, buildApps, migratingApps } from './apps.mjs';
import { ensurePostgres } from './postgres.mjs';
import { runAppCommand } from './services.mjs';

const USAGE = 'usage: migrate.mjs up | down [--yes]';

runMain(async () => {
  const [direction, ...flags] = process.argv.slice(2);
  const confirmed = flags.includes('--yes');
  if (!['up', 'down'].includes(direction) || flags.some((flag) => flag !== '--yes') || (confirmed && direction === 'up')) throw new StackError(USAGE);
  const postgres = await ensurePostgres();
  const apps = migratingApps(APPS);
  await buildApps(apps);
  const env = { ...process.env, DATABASE_URL: postgres.url };
  if (direction === 'up') {
    for (const app of apps) await runAppCommand(app, ['migrate'], env);
    return log('migrate: done');
  }
  // Every schema is asked first, so that a revert that needs --yes leaves the others untouched too.
  if (!confirmed) {
    let refused = false;
    for (const app of apps) refused = (await runAppCommand(app, ['migrate:revert', '--dry-run'], env, { allowFailure: true })) !== 0 || refused;
    if (refused) throw new StackError('Nothing was changed. To revert and drop that data: npm run migrate:revert -- --yes');
  }
  for (const app of apps) await runAppCommand(app, ['migrate:revert', ...(confirmed ? ['--yes'] : [])], env);
  log('migrate:revert: done');
});
