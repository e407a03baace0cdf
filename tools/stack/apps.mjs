// The six deployable apps as the stack knows them: names, default ports, builds.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { log, ROOT, run } from './common.mjs';

/** Same defaults as DefaultPort in libs/contracts, which the apps themselves use. */
export const DEFAULT_PORTS = {
  'translate-api': 3000,
  'image-api': 3100,
  'webhook-dispatcher': 3200,
  'batch-worker': 3300,
  'image-worker': 3400,
  console: 3500,
};
export const APPS = Object.keys(DEFAULT_PORTS);

/**
 * Ports that fetch refuses to connect to (the Fetch standard's "bad ports"; FETCH_BAD_PORTS in
 * libs/contracts): a service there could never pass the stack's health check.
 */
export const FETCH_BAD_PORTS = JSON.parse(readFileSync(path.join(ROOT, 'libs/contracts/src/fetch-bad-ports.json'), 'utf8'));

/** The apps whose `migrate` commands own the schemas each app uses. */
export const MIGRATED_BY = {
  'translate-api': ['translate-api'],
  'batch-worker': ['translate-api'],
  'webhook-dispatcher': ['translate-api'],
  'image-api': ['image-api'],
  'image-worker': ['image-api'],
  // The console's users, sessions and invitations live in the translation schema; it also reads
  // the image schema's subscriptions (IMAGE_DATABASE_URL).
  console: ['translate-api', 'image-api'],
};
export const migratingApps = (apps) => [...new Set(apps.flatMap((app) => MIGRATED_BY[app]))];

/** A single PORT cannot serve six apps: each takes its own override, e.g. IMAGE_API_PORT. */
export const portVariable = (app) => `${app.toUpperCase().replace(/-/g, '_')}_PORT`;

export const appMain = (app) => path.join(ROOT, 'dist/apps', app, 'main.js');

export async function buildApps(apps) {
  const started = Date.now();
  // One at a time: each build already keeps a core busy, and errors stay readable.
  for (const app of apps) await run(process.execPath, [path.join(ROOT, 'tools/build.mjs'), app]);
  log(`built ${apps.join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
