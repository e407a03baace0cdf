#!/usr/bin/env node
// `npm run migrate` / `npm run migrate:revert`: applies, or reverts the last of, the migrations
// of every app that owns a schema, against DATABASE_URL (default: the local cluster).
import { log, runMain, StackError } from './common.mjs';
import { APPS, buildApps, migratingApps } from './apps.mjs';
import { ensurePostgres } from './postgres.mjs';
import { runAppCommand } from './services.mjs';

const COMMANDS = { up: 'migrate', down: 'migrate:revert' };

runMain(async () => {
  const command = COMMANDS[process.argv[2]];
  if (!command) throw new StackError('usage: migrate.mjs up|down');
  const postgres = await ensurePostgres();
  const apps = migratingApps(APPS);
  await buildApps(apps);
  const env = { ...process.env, DATABASE_URL: postgres.url };
  for (const app of apps) {
    await runAppCommand(app, [command], env);
    log(`${app} ${command}: done`);
  }
});
