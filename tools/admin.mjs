#!/usr/bin/env node
// `npm run admin -- <command> ...`: operator commands without HTTP. Builds the app that owns the
// command, brings its schema up to date, then runs `node dist/apps/<app>/main.js admin <command> ...`
// with this process's environment, output and exit code.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_DATABASE_URL } from './stack/postgres.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const APP_BY_COMMAND = {
  'account:create': 'translate-api',
  'account:limits': 'translate-api',
  'account:review-pool': 'translate-api',
  'key:create': 'translate-api',
  'reviewer:create': 'translate-api',
  'reviewer:revoke': 'translate-api',
  'catalog:build': 'translate-api',
  'token:create': 'image-api',
  'user:invite': 'console',
  'account:activate': 'console',
  'account:pending': 'console',
  // The console reaches the accounts and, through IMAGE_DATABASE_URL, the image subscriptions.
  'subscription:link': 'console',
  'account:signups': 'console',
  'account:approve': 'console',
};

const [command, ...args] = process.argv.slice(2);
const app = Object.hasOwn(APP_BY_COMMAND, command ?? '') ? APP_BY_COMMAND[command] : undefined;
if (!app) {
  console.error(`usage: npm run admin -- <command> [options]\ncommands: ${Object.keys(APP_BY_COMMAND).join(', ')}`);
  process.exit(1);
}
const main = path.join(root, 'dist/apps', app, 'main.js');
// As `npm start` runs the console: both products' schemas in the one database unless told otherwise.
const env = app === 'console' ? { ...process.env, IMAGE_DATABASE_URL: process.env.IMAGE_DATABASE_URL || process.env.DATABASE_URL || DEFAULT_DATABASE_URL } : process.env;

/** Preparation steps stay silent unless they fail, so the command's own output is all there is. */
function quietly(step, argv) {
  const result = spawnSync(process.execPath, argv, { cwd: root, env, encoding: 'utf8' });
  if (result.status === 0) return;
  process.stderr.write(`${step} failed:\n${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? `${result.error.message}\n` : ''}`);
  process.exit(result.status || 1);
}

quietly(`building ${app}`, [path.join(root, 'tools/build.mjs'), app]);
// Fresh databases work too; the runner is idempotent and safe next to running replicas.
quietly(`migrating the schema of ${app}`, [main, 'migrate']);
const result = spawnSync(process.execPath, [main, 'admin', command, ...args], { cwd: root, env, stdio: 'inherit' });
if (result.error) console.error(result.error.message);
process.exit(result.status ?? 1);
