import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/** Smaller answers gain less than the headers and the work cost. */
const MIN_BYTES = 1024;
const COMPRESSIBLE = /^(application\/(json|javascript|xml|x-tmx\+xml|xliff\+xml)|text\/|image\/svg\+xml)/;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * The encoding to answer with, from Accept-Encoding's weights (RFC 9110, section 12.5.3): brotli
 * or gzip, whichever weighs more (brotli when equal), none when both weigh 0 or the header is
 * absent. A three-token header is read here rather than through a library: none is among the
 * platform's dependencies, and the rules that matter fit in these lines.
 */
export function chooseEncoding(header: string | string[] | undefined): Encoding | undefined {
  if (!header) return undefined;
  const weights = new Map<string, number>();
  for (const part of String(header).toLowerCase().split(',')) {
    const [coding, ...params] = part.split(';').map((piece) => piece.trim());
    const q = params.find((param) => param.startsWith('q='));
    weights.set(coding, q ? Number(q.slice(2)) : 1);
  }
  const weight = (coding: Encoding) => weights.get(coding) ?? weights.get('*') ?? 0;
  const [best] = (['br', 'gzip'] as const).filter((coding) => weight(coding) > 0).sort((a, b) => weight(b) - weight(a));
  return best;
}

/**
 * Compresses bytes for the encoding: brotli at its best for build assets (once per file, then
 * kept), at a quicker level for answers made per request.
 */
export function compress(body: Buffer, encoding: Encoding, { once = false } = {}): Promise<Buffer> {
  if (encoding === 'gzip') return gzipped(body, { level: once ? 9 : 6 });
  return brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: once ? 11 : 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
}

/** Marks an answer as encoded, for caches too: the same URL has one body per encoding. */
export function sendEncoded(reply: FastifyReply, encoding: Encoding): void {
  reply.header('content-encoding', encoding);
  reply.removeHeader('content-length');
}

const varyOnEncoding = (reply: FastifyReply) => {
  const vary = String(reply.getHeader('vary') ?? '');
  if (!/accept-encoding/i.test(vary)) reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
};

/**
 * Every text answer of the console (the session API's JSON, the page, downloads made in memory)
 * compressed when the client accepts brotli or gzip and it is worth it; answers that are already
 * encoded (the kept build assets) or streamed go as they are.
 */
export function compressResponses(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (!COMPRESSIBLE.test(type) || request.method === 'HEAD') return payload;
    varyOnEncoding(reply);
    if (reply.hasHeader('content-encoding') || !(typeof payload === 'string' || Buffer.isBuffer(payload))) return payload;
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (!encoding || body.length < MIN_BYTES) return payload;
    sendEncoded(reply, encoding);
    return compress(body, encoding);
  });
}
