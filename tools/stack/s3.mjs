// S3-compatible storage for the local stack: the server S3_ENDPOINT names, an s3rver already
// listening on 127.0.0.1:4569, or one started here with its objects kept in .data/s3.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { canConnect, ensureDataDir, log, StackError, waitUntil } from './common.mjs';
import { relayLines, stopChild } from './services.mjs';

const LOCAL = { host: '127.0.0.1', port: 4569 };
const SERVER_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 's3-server.mjs');

/**
 * Returns `{ endpoint, bucket, cdnUrl, stop, child }`; `stop` and `child` are set when this call
 * started s3rver.
 * Locally the CDN URL is the bucket itself, since s3rver serves objects to anonymous GETs.
 */
export async function ensureS3(env = process.env) {
  const bucket = env.S3_BUCKET || 'images';
  if (env.S3_ENDPOINT) {
    const endpoint = env.S3_ENDPOINT.replace(/\/$/, '');
    log(`using S3 at ${endpoint}`);
    return { endpoint, bucket, cdnUrl: env.CDN_URL || `${endpoint}/${bucket}`, stop: null };
  }
  const endpoint = `http://${LOCAL.host}:${LOCAL.port}`;
  const result = { endpoint, bucket, cdnUrl: env.CDN_URL || `${endpoint}/${bucket}`, stop: null };
  if (await canConnect(LOCAL.host, LOCAL.port)) {
    await createBucket(endpoint, bucket);
    log(`reusing the S3 server at ${endpoint} (bucket ${bucket})`);
    return result;
  }
  const child = await startS3rver(bucket);
  log(`s3rver ready at ${endpoint} (bucket ${bucket}, data in .data/s3)`);
  return { ...result, child, stop: () => stopChild(child, 's3rver', 5000) };
}

/** s3rver accepts unsigned requests, so an existing one gets the bucket without credentials. */
async function createBucket(endpoint, bucket) {
  const response = await fetch(`${endpoint}/${bucket}`, { method: 'PUT' }).catch((error) => ({ status: 0, error }));
  // 409: the bucket exists already.
  if (response.status !== 200 && response.status !== 409) {
    throw new StackError(
      `Port ${LOCAL.port} is taken by something that does not create S3 buckets (status ${response.status}); stop it or set S3_ENDPOINT.`,
    );
  }
}

async function startS3rver(bucket) {
  const child = spawn(process.execPath, [SERVER_SCRIPT, ensureDataDir('s3'), LOCAL.host, String(LOCAL.port), bucket], {
    stdio: ['ignore', 'ignore', 'pipe'],
    // Its own process group: a Ctrl-C in the terminal reaches the stack, which stops s3rver last.
    detached: true,
  });
  relayLines(child.stderr, 's3rver', true);
  let exited = false;
  child.on('exit', () => (exited = true));
  await waitUntil(
    async () => {
      if (exited) throw new StackError('s3rver exited during start (its output is above)');
      return canConnect(LOCAL.host, LOCAL.port);
    },
    { what: 's3rver listening on 127.0.0.1:4569', timeoutMs: 15_000 },
  );
  return child;
}
