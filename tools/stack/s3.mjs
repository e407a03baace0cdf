// S3-compatible storage for the local stack: the server S3_ENDPOINT names, or this stack's own
// s3rver on 127.0.0.1:STACK_S3_PORT (4569 by default) with its objects kept in .data/s3: one
// already listening there is reused only when it keeps its objects in this stack's data directory.
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FETCH_BAD_PORTS } from './apps.mjs';
import { canConnect, ensureDataDir, log, StackError, waitUntil } from './common.mjs';
import { S3_DATA_HEADER } from './local-s3.mjs';
import { relayLines, stopChild } from './services.mjs';

const HOST = '127.0.0.1';
const DEFAULT_PORT = 4569;
const SERVER_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 's3-server.mjs');

/**
 * Returns `{ endpoint, bucket, cdnUrl, stop, child }`; `stop` and `child` are set when this call
 * started s3rver.
 * Locally the CDN URL is the bucket itself: anonymous clients may read the converted images in
 * it and nothing else (local-s3.mjs).
 */
export async function ensureS3(env = process.env) {
  const bucket = env.S3_BUCKET || 'images';
  if (env.S3_ENDPOINT) {
    const endpoint = env.S3_ENDPOINT.replace(/\/$/, '');
    log(`using S3 at ${endpoint}`);
    return { endpoint, bucket, cdnUrl: env.CDN_URL || `${endpoint}/${bucket}`, stop: null };
  }
  const port = localPort(env);
  const directory = ensureDataDir('s3');
  const endpoint = `http://${HOST}:${port}`;
  const result = { endpoint, bucket, cdnUrl: env.CDN_URL || `${endpoint}/${bucket}`, stop: null };
  if (await canConnect(HOST, port)) {
    await refuseOtherServer(endpoint, port, directory);
    await createBucket(endpoint, port, bucket);
    log(`reusing this stack's S3 server at ${endpoint} (bucket ${bucket})`);
    return result;
  }
  const child = await startS3rver(directory, port, bucket);
  log(`s3rver ready at ${endpoint} (bucket ${bucket}, data in ${directory})`);
  return { ...result, child, stop: () => stopChild(child, 's3rver', 5000) };
}

/** STACK_S3_PORT: a second stack on the same machine gives its s3rver a port of its own. */
function localPort(env) {
  if (!env.STACK_S3_PORT) return DEFAULT_PORT;
  const port = Number(env.STACK_S3_PORT);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new StackError(`STACK_S3_PORT="${env.STACK_S3_PORT}" must be a TCP port number (1-65535)`);
  }
  if (FETCH_BAD_PORTS.includes(port)) {
    throw new StackError(`STACK_S3_PORT=${port}: fetch refuses to connect to this port (a "bad port" of the Fetch standard), so browsers could not load images from it. Choose another.`);
  }
  return port;
}

/**
 * Only this stack's own s3rver (left running by an earlier run) is reused. Another stack's, or a
 * test run's, keeps other objects: sharing it would mix both stacks' images and its owner stopping
 * would take this stack's storage down. Anything else on the port is not an S3 server of ours.
 */
async function refuseOtherServer(endpoint, port, directory) {
  const response = await fetch(`${endpoint}/`, { signal: AbortSignal.timeout(5000) }).catch(() => null);
  const header = response?.headers.get(S3_DATA_HEADER);
  const owner = header ? decodeURIComponent(header) : null;
  if (owner === path.resolve(directory)) return;
  const choose = `set STACK_S3_PORT to a free port for this stack (docs/configuration.md), stop what listens on ${port}, or set S3_ENDPOINT to use a server of your own`;
  if (owner) throw new StackError(`Port ${port} is taken by the S3 server of another stack (objects in ${owner}); ${choose}.`);
  throw new StackError(`Port ${port} is taken by something that is not this stack's S3 server; ${choose}.`);
}

/** An existing server gets the bucket through a request signed with s3rver's own credentials. */
async function createBucket(endpoint, port, bucket) {
  const s3 = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  try {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }), { abortSignal: AbortSignal.timeout(5000) });
  } catch (error) {
    if (!['BucketAlreadyOwnedByYou', 'BucketAlreadyExists'].includes(error.name)) {
      throw new StackError(`The S3 server on port ${port} does not create buckets (${error.name}); stop it or set S3_ENDPOINT.`);
    }
  } finally {
    s3.destroy();
  }
}

async function startS3rver(directory, port, bucket) {
  const child = spawn(process.execPath, [SERVER_SCRIPT, directory, HOST, String(port), bucket], {
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
      return canConnect(HOST, port);
    },
    { what: `s3rver listening on ${HOST}:${port}`, timeoutMs: 15_000 },
  );
  return child;
}
