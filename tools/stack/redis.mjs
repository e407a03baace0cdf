// Redis for the local stack and CI: the server REDIS_URL names, or one on 127.0.0.1:6379,
// started (and on Debian as root, installed) when none answers.
import { Redis } from 'ioredis';
import { aptInstall, commandExists, displayUrl, ensureDataDir, log, run, StackError, waitUntil } from './common.mjs';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** Returns the URL and, when this call started redis-server, a `stop` function. */
export async function ensureRedis(env = process.env) {
  const url = env.REDIS_URL || DEFAULT_REDIS_URL;
  let started = false;
  if (!(await ping(url))) {
    if (env.REDIS_URL) throw new StackError(`Redis at ${displayUrl(url)} does not answer PING.`);
    started = await startLocalServer(url);
  }
  log(`redis ready at ${displayUrl(url)}${started ? ' (started redis-server)' : ''}`);
  return { url, stop: started ? () => shutdown(url) : null };
}

function connect(url) {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  client.on('error', () => {});
  return client;
}

export async function ping(url) {
  const client = connect(url);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/** Returns whether it started a server (false when the package's install script already did). */
async function startLocalServer(url) {
  if (!commandExists('redis-server')) {
    await aptInstall(['redis-server']);
    if (await ping(url)) return false;
  }
  log('starting redis-server on 127.0.0.1:6379 (no persistence)');
  const dir = ensureDataDir('redis');
  await run('redis-server', [
    '--daemonize', 'yes',
    '--bind', '127.0.0.1', '-::1',
    '--port', '6379',
    '--save', '',
    '--appendonly', 'no',
    '--dir', dir,
    '--logfile', `${dir}/redis.log`,
  ]);
  await waitUntil(() => ping(url), { what: 'redis-server answering PING', timeoutMs: 10_000 });
  return true;
}

async function shutdown(url) {
  log('stopping redis-server');
  const client = connect(url);
  try {
    await client.connect();
    await client.call('SHUTDOWN', 'NOSAVE');
  } catch {
    // The server closes the connection instead of answering a successful SHUTDOWN.
  } finally {
    client.disconnect();
  }
}
