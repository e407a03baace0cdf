// The local S3 server (s3rver) with the access rules the production bucket policy sets
// (docs/operations.md): anonymous clients may only read converted images, `{id}.webp` and
// `{id}.avif` at the top of a bucket. Everything else, listing and the pending sources (original
// uploads, EXIF location included) among it, needs a signed request. s3rver itself serves every
// unsigned request and has no bucket policies, so the rule is a middleware in front of its
// routes. s3rver checks that a signed request names its access key, not the V4 signature.
// Writes are made whole or not at all, as S3's are (atomicPuts).
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3rver from 's3rver';

const S3Error = createRequire(import.meta.url)('s3rver/lib/models/error');

const PUBLIC_OBJECT = /^\/[^/]+\/[^/]+\.(?:webp|avif)$/;
const ANONYMOUS_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// Query parameters that turn an object read into another operation (ACLs, tags, uploads...).
const SUBRESOURCES = ['acl', 'tagging', 'torrent', 'uploads', 'uploadId', 'versionId', 'versions', 'attributes', 'retention', 'legal-hold'];

const ACCESS_DENIED = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';

/** Exactly the requests s3rver authenticates; it serves any other as anonymous. */
function isSigned(ctx) {
  return 'authorization' in ctx.headers || 'Signature' in ctx.query || 'X-Amz-Algorithm' in ctx.query;
}

function isPublicRead(ctx) {
  if (!ANONYMOUS_METHODS.has(ctx.method)) return false;
  if (SUBRESOURCES.some((name) => name in ctx.query)) return false;
  try {
    return PUBLIC_OBJECT.test(decodeURIComponent(ctx.path));
  } catch {
    return false;
  }
}

async function anonymousReadsOfOutputsOnly(ctx, next) {
  if (isSigned(ctx) || isPublicRead(ctx)) return next();
  ctx.status = 403;
  ctx.type = 'application/xml';
  ctx.body = ACCESS_DENIED;
}

/**
 * Every response names the directory the server keeps its objects in (URI-encoded), so that a
 * stack finding a server on its port can tell its own from another stack's (s3.mjs).
 */
export const S3_DATA_HEADER = 'x-local-s3-data';

/** The CORS rule of a bucket browsers load CDN URLs from. */
export const PUBLIC_READ_CORS = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <MaxAgeSeconds>3600</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

/**
 * An s3rver (not yet running; call `run()`) keeping objects in `directory`, with `buckets`
 * created and given the CORS rule, and the anonymous-access rule above in force on every bucket.
 * @param {{ directory: string, address: string, port: number, buckets?: string[] }} options
 */
export function createLocalS3({ directory, address, port, buckets = [] }) {
  const server = new S3rver({
    directory,
    address,
    port,
    silent: true,
    // Path-style addresses only: s3rver would take a host name such as `minio` (another
    // container's) for a bucket name.
    vhostBuckets: false,
    configureBuckets: buckets.map((name) => ({ name, configs: [PUBLIC_READ_CORS] })),
  });
  // Koa composes its middleware when the server starts listening; first in line sees every request.
  server.middleware.unshift(anonymousReadsOfOutputsOnly);
  server.middleware.unshift(async (ctx, next) => {
    ctx.set(S3_DATA_HEADER, encodeURIComponent(path.resolve(directory)));
    await next();
  });
  keepFoldersOnDelete(server.store);
  atomicPuts(server.store);
  return server;
}

/**
 * s3rver removes a key's folders once a delete leaves them empty. A PUT into the same folder that
 * has just created it then fails in a write stream nobody listens to, and the whole server exits:
 * identical uploads share `pending/{id}.{format}/`, so concurrent conversions hit this. Empty
 * folders cost nothing and are invisible to S3 clients, so deletes leave them in place.
 */
function keepFoldersOnDelete(store) {
  store.deleteObject = async (bucket, key) => {
    const files = ['object', 'object.md5', 'metadata.json'].map((name) => store.getResourcePath(bucket, key, name));
    await Promise.all(files.map((file) => rm(file, { force: true })));
  };
}

/** Filesystem errors of a full disk (or quota): the upload is refused, the server goes on. */
const NO_SPACE = new Set(['ENOSPC', 'EDQUOT']);

/**
 * s3rver writes an upload straight into the object's file and answers before the data is on
 * disk; a write that then fails (a full disk) leaves a torn object that readers are served, and
 * its error, which nobody listens for, ends the whole server. Here an upload goes to a file of its
 * own first, invisible to every listing and read; only once it is complete, matches its
 * Content-Length and Content-MD5 (when the client sent one; S3 checks it too), and its metadata
 * is written, does it replace the object in one rename. A full disk answers 507, a body that does
 * not match 400 BadDigest or IncompleteBody; nothing is left behind.
 */
function atomicPuts(store) {
  store.putObject = async (object) => {
    const objectPath = store.getResourcePath(object.bucket, object.key, 'object');
    // The metadata goes through s3rver's own writer, under a key no listing shows (it only lists `…_object` files).
    const draftKey = `${object.key}.${randomUUID()}.upload`;
    const draft = {
      object: `${objectPath}.${randomUUID()}.upload`,
      md5: store.getResourcePath(object.bucket, draftKey, 'object.md5'),
      metadata: store.getResourcePath(object.bucket, draftKey, 'metadata.json'),
    };
    const md5 = createHash('md5');
    let size = 0;
    const counted = new Transform({
      transform(chunk, _encoding, done) {
        md5.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await mkdir(path.dirname(objectPath), { recursive: true });
      const content = Buffer.isBuffer(object.content) ? Readable.from([object.content]) : object.content;
      await pipeline(content, counted, createWriteStream(draft.object));
      const digest = md5.digest();
      checkBody(object, size, digest);
      await store.putMetadata(object.bucket, draftKey, object.metadata, digest.toString('hex'));
      await rename(draft.md5, store.getResourcePath(object.bucket, object.key, 'object.md5'));
      await rename(draft.metadata, store.getResourcePath(object.bucket, object.key, 'metadata.json'));
      await rename(draft.object, objectPath);
      return { size, md5: digest.toString('hex') };
    } catch (error) {
      await Promise.all(Object.values(draft).map((file) => rm(file, { force: true })));
      if (NO_SPACE.has(error?.code)) throw Object.assign(new S3Error('InsufficientStorage', 'The server has no space left to store the object'), { status: 507 });
      throw error;
    }
  };
}

function checkBody(object, size, digest) {
  const declared = object.metadata['content-length'];
  if (declared !== undefined && Number(declared) !== size) throw new S3Error('IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header');
  // s3rver keeps only some headers as metadata; the request itself is the object's content.
  const expected = object.content?.headers?.['content-md5'];
  if (expected !== undefined && expected !== digest.toString('base64')) throw new S3Error('BadDigest', 'The Content-MD5 you specified did not match what we received.');
}
