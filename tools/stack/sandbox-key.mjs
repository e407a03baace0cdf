// The local sandbox key: created once through the admin CLI and kept in .data/sandbox-key, so
// every `npm start` prints the same key instead of piling up new ones.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DATA_DIR, ensureDataDir, ROOT, run, StackError } from './common.mjs';

const ACCOUNT = 'sandbox';
const KEY_FILE = path.join(DATA_DIR, 'sandbox-key');
const ADMIN_CLI = path.join(ROOT, 'tools/admin.mjs');

const admin = (args, env, allowFailure = false) => run(process.execPath, [ADMIN_CLI, ...args], { env, allowFailure });

/**
 * Any authenticated route answers 401 only for an unknown or revoked key; a sandbox key lacks the
 * `manage` scope, so a valid one gets 403 here without side effects.
 */
async function isAccepted(translateUrl, key) {
  const response = await fetch(`${translateUrl}/api/v1/keys`, { headers: { authorization: `Bearer ${key}` } });
  return response.status !== 401;
}

/**
 * Returns `{ key, created }`. With translate-api running at `translateUrl`, a stored key is
 * checked first, so a reset database or a revoked key leads to a new one.
 */
export async function ensureSandboxKey(env, translateUrl) {
  const stored = existsSync(KEY_FILE) ? readFileSync(KEY_FILE, 'utf8').trim() : '';
  if (stored && (!translateUrl || (await isAccepted(translateUrl, stored)))) return { key: stored, created: false };
  if (!existsSync(ADMIN_CLI)) throw new StackError('tools/admin.mjs is missing, so no sandbox key could be created');
  // key:create needs the account, which outlives its keys: "already exists" is the normal case,
  // and any other problem shows up in key:create below.
  await admin(['account:create', ACCOUNT], env, true);
  const { stdout } = await admin(['key:create', '--account', ACCOUNT, '--sandbox'], env);
  const key = stdout.trim().split('\n').at(-1)?.trim();
  if (!key) throw new StackError('admin key:create printed no key');
  ensureDataDir();
  writeFileSync(KEY_FILE, `${key}\n`, { mode: 0o600 });
  chmodSync(KEY_FILE, 0o600);
  return { key, created: true };
}
