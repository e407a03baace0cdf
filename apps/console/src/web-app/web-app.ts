import { ApiError } from '@platform/errors';
import type { FastifyInstance } from 'fastify';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { chooseEncoding, compress, compressResponses, sendEncoded, type Encoding } from './response-compression';

/** Where the browser app lives; the session API is under API_PREFIX, so no page may take its paths. */
export const WEB_APP_PATH = '/console';
const API_PREFIX = `${WEB_APP_PATH}/api/`;

/** Only this origin's own files; the build inlines no script or style (Vite's assetsInlineLimit 0). */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** Vite names every built asset after its content, so one name always means the same bytes. */
const ASSET_NAME = /^[\w-]+\.[\w.-]+$/;

const notBuilt = () => new ApiError(503, 'console_not_built', "The console's browser app is not built: run `npx nx run console:build`");

/** A built asset as read, and its compressed forms as clients asked for them (made once each: a name always means the same bytes). */
interface Asset {
  body: Buffer;
  encoded: Map<Encoding, Promise<Buffer>>;
}

/**
 * The single-page app: hashed assets cached for a year, and index.html (revalidated every time)
 * for every other path under /console/, where the app's router takes over. Only names that match
 * ASSET_NAME are looked up, inside `directory/assets`, so no request path reaches elsewhere.
 * Every answer of the console is compressed for clients that accept it (`compressResponses`).
 */
export function serveWebApp(fastify: FastifyInstance, directory: string): void {
  compressResponses(fastify);
  const assets = new Map<string, Asset>();
  // Read on every request (it is small): a new build, e.g. under `nx serve`, names new assets.
  const readIndex = () => readFile(path.join(directory, 'index.html'), 'utf8').catch(() => undefined);

  fastify.get(`${WEB_APP_PATH}/assets/:name`, async (request, reply) => {
    const { name } = request.params as { name: string };
    const type = CONTENT_TYPES[path.extname(name)];
    if (!ASSET_NAME.test(name) || !type) throw new ApiError(404, 'not_found', 'No such file');
    let asset = assets.get(name);
    if (!asset) {
      const body = await readFile(path.join(directory, 'assets', name)).catch(() => undefined);
      if (!body) throw new ApiError(404, 'not_found', 'No such file');
      asset = { body, encoded: new Map() };
      assets.set(name, asset);
    }
    reply.header('cache-control', 'public, max-age=31536000, immutable').type(type);
    const encoding = type.startsWith('image/png') || type.startsWith('font/') ? undefined : chooseEncoding(request.headers['accept-encoding']);
    if (!encoding) return asset.body;
    if (!asset.encoded.has(encoding)) asset.encoded.set(encoding, compress(asset.body, encoding, { once: true }));
    sendEncoded(reply, encoding);
    return asset.encoded.get(encoding);
  });

  const page = async (request: { url: string }, reply: import('fastify').FastifyReply) => {
    if (request.url.startsWith(API_PREFIX)) throw new ApiError(404, 'not_found', 'No such endpoint');
    const html = await readIndex();
    if (!html) throw notBuilt();
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY).header('cache-control', 'no-cache').type('text/html; charset=utf-8');
    return html;
  };
  fastify.get(WEB_APP_PATH, page);
  fastify.get(`${WEB_APP_PATH}/*`, page);
  fastify.get('/', async (_request, reply) => reply.redirect(`${WEB_APP_PATH}/`, 302));
}
