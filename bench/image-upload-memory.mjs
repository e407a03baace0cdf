#!/usr/bin/env node
// Memory of image-api under large uploads: 3 batches of 10 × 24 MB at once, sent three ways —
// an unknown access_token field before the files, the same field after the files, and a valid
// X-Access-Token (the files are not images, so every one is read whole and then refused with
// 415). Prints image-api's resident memory before, its peak after each phase, and how long the
// answers took. Uploads are refused before they are read, or streamed to temp files, so the
// peak should stay near the idle figure instead of growing by the bodies' size.
// Usage: node bench/image-upload-memory.mjs
// Postgres and Redis as for `npm start` (DATABASE_URL/REDIS_URL when given, else the local ones).
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { ensureInfra } from '../tools/stack/ensure-infra.mjs';
import { rssMiB, startBenchApp, startBenchS3 } from './bench-app.mjs';

const BUCKET = 'images';
const FILES = 10;
const FILE_BYTES = 24 * 1024 * 1024;
const AT_ONCE = 3;

const file = new Blob([randomBytes(FILE_BYTES)]);

function batchForm(fieldsFirst, fieldsLast) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fieldsFirst)) form.append(name, value);
  for (let i = 0; i < FILES; i++) form.append('files', file, `upload-${i}.jpg`);
  for (const [name, value] of Object.entries(fieldsLast)) form.append(name, value);
  return form;
}

/** Sends AT_ONCE batches at once; the statuses and the seconds until the last answer. */
async function phase(url, { headers = {}, fieldsFirst = {}, fieldsLast = {} }) {
  const started = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      // A server that answers before the body is sent may close the connection under it.
      const response = await fetch(`${url}/convert/batch`, { method: 'POST', headers, body: batchForm(fieldsFirst, fieldsLast) }).catch((error) => ({ status: error.cause?.code ?? 'error' }));
      await response.arrayBuffer?.();
      return response.status;
    }),
  );
  return { statuses, seconds: (performance.now() - started) / 1000 };
}

const { postgres, redis } = await ensureInfra();
const s3 = await startBenchS3(BUCKET);
let server;
try {
  server = await startBenchApp('image-api', {
    env: { DATABASE_URL: postgres.url, REDIS_URL: redis.url, S3_ENDPOINT: s3.endpoint, S3_BUCKET: BUCKET, CONCURRENT_REQUESTS_PER_TOKEN: String(AT_ONCE) },
    admin: ['token:create', '--plan', 'business'],
  });
  const pid = server.child.pid;
  const mib = (value) => `${value?.toFixed(0) ?? '?'} MiB`;
  console.log(`${AT_ONCE} batches of ${FILES} × ${FILE_BYTES / 1024 / 1024} MB at once; image-api idle: ${mib(rssMiB(pid))}`);
  const phases = [
    ['unknown access_token field before the files', { fieldsFirst: { access_token: 'img_unknown' } }],
    ['unknown access_token field after the files', { fieldsLast: { access_token: 'img_unknown' } }],
    ['valid X-Access-Token, files read whole', { headers: { 'x-access-token': server.secret } }],
  ];
  for (const [name, options] of phases) {
    const { statuses, seconds } = await phase(server.url, options);
    console.log(`${name.padEnd(46)} answers ${statuses.join(', ')} in ${seconds.toFixed(1)} s; peak so far ${mib(rssMiB(pid, 'VmHWM'))}`);
  }
} finally {
  if (server) {
    server.child.kill('SIGTERM');
    await once(server.child, 'exit');
  }
  await s3.stop();
  await postgres.stop?.();
  await redis.stop?.();
}
