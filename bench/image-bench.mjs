// What the image benchmarks share: photo-like test images, the service's conversion done with
// sharp directly, POST /convert, and cleaning up the variant jobs a run left in Redis.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import Queue from 'bull';
import sharp from 'sharp';
import { ensureInfra } from '../tools/stack/ensure-infra.mjs';
import { startBenchApp, startBenchS3 } from './bench-app.mjs';

// The service's defaults (conversion.config.ts, image-formats.ts); the API gets no quality field.
export const MAX_PIXELS = 50_000_000;
export const SETTINGS = { webp: { quality: 85, effort: 4 }, avif: { quality: 80, effort: 2 } };
export const BUCKET = 'images';

/**
 * A photo stand-in: colour gradients under deterministic noise (±`noise`/2 levels), so encoders
 * have real work.
 */
export function photoJpeg(width, height, { noise = 32, quality = 90 } = {}) {
  const raw = Buffer.alloc(width * height * 3);
  let seed = width * 7919 + height;
  for (let pixel = 0, i = 0; pixel < width * height; pixel++) {
    const x = pixel % width;
    const y = (pixel - x) / width;
    const bases = [(x * 255) / width, (y * 255) / height, ((x + y) * 127) / (width + height) + 64];
    for (const base of bases) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      raw[i++] = Math.max(0, Math.min(255, base + ((seed >>> 24) * noise) / 256 - noise / 2));
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality }).toBuffer();
}

/** The same image under new bytes: a JPEG comment segment (COM) right after the start marker. */
export function unique(jpeg) {
  const text = Buffer.from(randomUUID());
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, text, jpeg.subarray(2)]);
}

/** ImageConverter.convert, step for step (libs/image-conversion). */
export function rawConvert({ format, input, maxWidth }) {
  // The inputs here are JPEGs, which the service never loads as animations.
  let pipeline = sharp(input, { limitInputPixels: MAX_PIXELS, failOn: 'truncated' }).autoOrient();
  if (maxWidth) pipeline = pipeline.resize({ width: maxWidth, fit: 'inside', withoutEnlargement: true });
  pipeline = pipeline.keepIccProfile();
  pipeline = format === 'avif' ? pipeline.avif(SETTINGS.avif) : pipeline.webp(SETTINGS.webp);
  return pipeline.toBuffer();
}

/** Posts one conversion; returns the stored image's id. `headers` go with it (e.g. X-Forwarded-Proto). */
export async function apiConvert({ url, secret: token, headers = {} }, { format, input, maxWidth }) {
  const form = new FormData();
  form.append('file', new Blob([input]), 'photo.jpg');
  form.append('format', format);
  if (maxWidth) form.append('max_width', String(maxWidth));
  const response = await fetch(`${url}/convert`, { method: 'POST', headers: { ...headers, 'x-access-token': token }, body: form });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`convert answered ${response.status}: ${body}`);
  if (response.headers.get('content-type') !== `image/${format}`) throw new Error(`convert answered ${response.headers.get('content-type')}`);
  return response.headers.get('x-cdn-image-id');
}

/**
 * The variant jobs a run queued name sources in its own S3, which is gone afterwards; they are
 * removed so that no worker on the same Redis picks them up.
 */
export async function dropVariantJobs(redisUrl, imageIds) {
  const queue = new Queue('image-variants', redisUrl);
  const jobs = await queue.getJobs(['waiting', 'delayed', 'paused', 'failed']);
  const ours = jobs.filter((job) => job && imageIds.has(/^pending\/([^.]+)\./.exec(String(job.id))?.[1]));
  await Promise.all(ours.map((job) => job.remove()));
  await queue.close();
}

/**
 * Runs `work(server, imageIds, s3)` against a built image-api on the stack's Postgres and Redis and an
 * s3rver of its own (`s3.endpoint`), with a business-plan token (`server.secret`); `env` adds to
 * its settings. Every image id `work` adds to `imageIds` has its variant jobs dropped at the end.
 */
export async function withImageApi(env, work) {
  const { postgres, redis } = await ensureInfra();
  const s3 = await startBenchS3(BUCKET);
  const imageIds = new Set();
  let server;
  try {
    server = await startBenchApp('image-api', {
      env: { DATABASE_URL: postgres.url, REDIS_URL: redis.url, S3_ENDPOINT: s3.endpoint, S3_BUCKET: BUCKET, ...env },
      admin: ['token:create', '--plan', 'business'],
    });
    return await work(server, imageIds, s3);
  } finally {
    await stopImageBench({ server, imageIds, s3, postgres, redis });
  }
}

/** Ends an image benchmark: image-api stopped, its variant jobs dropped, its s3rver and infra stopped. */
async function stopImageBench({ server, imageIds, s3, postgres, redis }) {
  if (server) {
    server.child.kill('SIGTERM');
    await once(server.child, 'exit');
  }
  await dropVariantJobs(redis.url, imageIds);
  await s3.stop();
  await postgres.stop?.();
  await redis.stop?.();
}
