// PostgreSQL for the local stack and CI: the server DATABASE_URL names, or the machine's own
// cluster on 127.0.0.1:5432, started (and on Debian as root, installed) when it is not running.
import { existsSync, readdirSync } from 'node:fs';
import pg from 'pg';
import { aptInstall, canConnect, commandExists, displayUrl, isRoot, log, run, StackError, waitUntil } from './common.mjs';

/** The apps' own default; a cluster reached this way needs no configuration anywhere. */
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/platform';
const LOCAL = { host: '127.0.0.1', port: 5432 };

const NETWORK_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Makes the database of DATABASE_URL (or the default) reachable and present.
 * Returns its URL and, when this call started the local cluster, a `stop` function.
 */
export async function ensurePostgres(env = process.env) {
  const url = env.DATABASE_URL || DEFAULT_DATABASE_URL;
  let startedVersion = null;
  if (!env.DATABASE_URL) {
    if (!(await canConnect(LOCAL.host, LOCAL.port))) startedVersion = await startLocalCluster();
    if (isAuthError(await probe(maintenanceUrl(url)))) await trustLoopback();
  }
  await ensureDatabase(url);
  log(`postgres ready at ${displayUrl(url)}${startedVersion ? ` (started cluster ${startedVersion}/main)` : ''}`);
  return { url, stop: startedVersion ? () => stopCluster(startedVersion) : null };
}

function maintenanceUrl(url) {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  return admin.toString();
}

/** Connects once; returns the error, or null when the server accepted us. */
async function probe(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    return null;
  } catch (error) {
    return error;
  } finally {
    await client.end().catch(() => {});
  }
}

const isAuthError = (error) => error != null && !NETWORK_ERRORS.has(error.code);

async function ensureDatabase(url) {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const client = new pg.Client({ connectionString: maintenanceUrl(url), connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    throw new StackError(`PostgreSQL at ${displayUrl(url)} refused the connection: ${error.message}`);
  }
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`).catch((error) => {
        // Another process created it meanwhile.
        if (error.code !== '42P04') throw error;
      });
      log(`created database ${name}`);
    }
  } finally {
    await client.end();
  }
}

/** Debian's clusters (`/etc/postgresql/<version>/main`), newest first. */
function clusterVersions() {
  if (!existsSync('/etc/postgresql')) return [];
  return readdirSync('/etc/postgresql')
    .filter((version) => existsSync(`/etc/postgresql/${version}/main/postgresql.conf`))
    .sort((a, b) => Number(b) - Number(a));
}

function serverVersions() {
  if (!existsSync('/usr/lib/postgresql')) return [];
  return readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
}

/** Returns the version it started, or null when the server turned out to be running already. */
async function startLocalCluster() {
  if (!commandExists('pg_ctlcluster')) {
    if (!isRoot()) {
      throw new StackError('PostgreSQL is not running on 127.0.0.1:5432 and not installed: install it, or set DATABASE_URL.');
    }
    await aptInstall(['postgresql']);
  }
  if (clusterVersions().length === 0) {
    const [version] = serverVersions();
    if (!version) throw new StackError('No PostgreSQL server binaries found under /usr/lib/postgresql.');
    log(`creating cluster ${version}/main`);
    await run('pg_createcluster', [version, 'main']);
  }
  // The package's install script may have started the cluster already.
  if (await canConnect(LOCAL.host, LOCAL.port)) return null;
  for (const version of clusterVersions()) {
    log(`starting PostgreSQL cluster ${version}/main`);
    const { stderr } = await run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { allowFailure: true });
    if (await canConnect(LOCAL.host, LOCAL.port)) return version;
    if (stderr.trim()) log(stderr.trim());
  }
  throw new StackError('Could not start a PostgreSQL cluster listening on 127.0.0.1:5432; set DATABASE_URL to use another server.');
}

async function stopCluster(version) {
  log(`stopping PostgreSQL cluster ${version}/main`);
  await run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'stop'], { allowFailure: true });
}

/**
 * A fresh Debian cluster asks for a password on TCP (scram-sha-256), while every default URL of
 * the project (apps, tests, this stack) connects as `postgres` without one. For this local
 * development and CI server we choose trust on loopback over a password: the defaults keep
 * working unchanged everywhere, and the server only listens on localhost, where the superuser is
 * already reachable over the peer-authenticated socket. A server on any other host, or one with
 * different rules, is used through DATABASE_URL with credentials instead.
 */
async function trustLoopback() {
  if (!isRoot()) {
    throw new StackError(
      'PostgreSQL on 127.0.0.1:5432 wants a password for user postgres: set DATABASE_URL with credentials, or allow trust on loopback in pg_hba.conf.',
    );
  }
  const psql = (sql) => run('runuser', ['-u', 'postgres', '--', 'psql', '-XqAtc', sql]);
  const hbaFile = (await psql('SHOW hba_file')).stdout.trim();
  log(`allowing password-less loopback connections in ${hbaFile}`);
  const rules = [
    '# Local development and CI (tools/stack/postgres.mjs): password-less TCP on loopback only.',
    'host all all 127.0.0.1/32 trust',
    'host all all ::1/128 trust',
  ].join('\n');
  // pg_hba.conf is read top-down, first match wins: the rules go first.
  await run('sh', ['-c', `printf '%s\\n\\n' "$1" | cat - "$2" > "$2.new" && cat "$2.new" > "$2" && rm "$2.new"`, 'sh', rules, hbaFile]);
  await psql('SELECT pg_reload_conf()');
  // The reload is signalled, not awaited: give the server a moment to re-read the file.
  await waitUntil(async () => (await probe(maintenanceUrl(DEFAULT_DATABASE_URL))) === null, {
    what: 'password-less connection as postgres after reloading pg_hba.conf',
    timeoutMs: 10_000,
  });
}
