import type { FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';

/** JSON with object keys sorted, so that key order and whitespace do not make a body "different". */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}

/**
 * SHA-256 of what makes two requests "the same" for Idempotency-Key: method, path with its
 * query parameters in sorted order, media type and the parsed body.
 */
export function requestFingerprint(request: FastifyRequest): string {
  const url = new URL(request.url, 'http://request.invalid');
  url.searchParams.sort();
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const canonicalRequest = JSON.stringify([request.method, `${url.pathname}${url.search}`, mediaType, canonical(request.body)]);
  return createHash('sha256').update(canonicalRequest).digest('hex');
}
