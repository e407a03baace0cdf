// S3-compatible storage for the local stack: the server S3_ENDPOINT names, an s3rver already
// listening on 127.0.0.1:4569, or one started here with its objects kept in .data/s3.
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
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
  const endpoint = `http://${LOCAL.host}:${LOCAL.port}`;
  const result = { endpoint, bucket, cdnUrl: env.CDN_URL || `${endpoint}/${bucket}`, stop: null };
  if (await canConnect(LOCAL.host, LOCAL.port)) {
    await createBucket(endpoint, bucket);
    await refuseOpenListing(endpoint, bucket);
    log(`reusing the S3 server at ${endpoint} (bucket ${bucket})`);
    return result;
  }
  const child = await startS3rver(bucket);
  log(`s3rver ready at ${endpoint} (bucket ${bucket}, data in .data/s3)`);
  return { ...result, child, stop: () => stopChild(child, 's3rver', 5000) };
}

/** An existing server gets the bucket through a request signed with s3rver's own credentials. */
async function createBucket(endpoint, bucket) {
  const s3 = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  try {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }), { abortSignal: AbortSignal.timeout(5000) });
  } catch (error) {
    if (!['BucketAlreadyOwnedByYou', 'BucketAlreadyExists'].includes(error.name)) {
      throw new StackError(`Port ${LOCAL.port} is taken by something that does not create S3 buckets (${error.name}); stop it or set S3_ENDPOINT.`);
    }
  } finally {
    s3.destroy();
  }
}

/**
 * An s3rver started by an older stack serves everything to anyone, original uploads included;
 * it is not used.
 */
async function refuseOpenListing(endpoint, bucket) {
  const response = await fetch(`${endpoint}/${bucket}?list-type=2&max-keys=1`).catch(() => null);
  if (response?.status === 200) {
    throw new StackError(`The S3 server at ${endpoint} lists its bucket to anyone, so original uploads would be public; stop it and run npm start again, or set S3_ENDPOINT.`);
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
