import type { IncomingHttpHeaders } from 'node:http';
import type { Operation } from './openapi-document';

export type Envelope = 'translation' | 'image' | 'deepl' | 'libretranslate';

/**
 * translate-api's compatible APIs answer errors as the vendor they imitate does, so that the
 * vendors' clients understand them: DeepL's `{"message"}`, LibreTranslate's `{"error"}`.
 */
const VENDOR_ENVELOPES: Record<string, Envelope> = { 'DeepL compatible': 'deepl', 'LibreTranslate compatible': 'libretranslate' };

/** The envelope a path's errors come in: a vendor's when its operations carry that vendor's tag. */
export const envelopeOf = (envelope: Envelope, pathOperations: Operation[]) =>
  pathOperations.flatMap((operation) => operation.tags).map((tag) => VENDOR_ENVELOPES[tag]).find(Boolean) ?? envelope;

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Translation error codes are machine-readable snake_case words (`invalid_key`), not HTTP reason phrases. */
const ERROR_CODE = /^[a-z][a-z0-9_]*$/;

function isEnvelope(envelope: Envelope, body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const fields = body as Record<string, unknown>;
  switch (envelope) {
    case 'translation':
      return typeof fields.error === 'string' && ERROR_CODE.test(fields.error) && typeof fields.message === 'string';
    case 'image':
      return typeof fields.error_message === 'string' && typeof fields.error_fatal_status === 'boolean';
    case 'deepl':
      return typeof fields.message === 'string' && fields.message.length > 0;
    case 'libretranslate':
      return typeof fields.error === 'string' && fields.error.length > 0;
  }
}

/** The content types an operation declares for `status`: exact code first, then 2XX-style ranges, then default. */
function declaredTypes(operation: Operation, status: number): string[] | undefined {
  const responses = operation.responses;
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
}

const mediaType = (headers: IncomingHttpHeaders) => (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();

/**
 * Why an answer is wrong, or undefined when it is fine: any 5xx; a non-2xx whose body is not
 * JSON in the API's error envelope; a 2xx whose body does not parse as its declared content type.
 */
export function checkAnswer(envelope: Envelope, method: string, operation: Operation | undefined, answer: Answer): string | undefined {
  const { status, headers, body } = answer;
  if (status >= 500) return `server error ${status}`;
  // HEAD answers carry no body by definition.
  if (method === 'HEAD') return undefined;
  const type = mediaType(headers);
  if (status < 200 || status >= 300) {
    if (!type.includes('json')) return `error answer with Content-Type ${type || 'none'}, not JSON`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      return 'error answer declared JSON but does not parse';
    }
    return isEnvelope(envelope, parsed) ? undefined : `error answer not in the ${envelope} envelope`;
  }
  if (!operation || status === 204) return undefined;
  const declared = declaredTypes(operation, status);
  if (declared?.length && !declared.includes(type)) return `${status} with Content-Type ${type || 'none'}, declared ${declared.join(' or ')}`;
  if (type.includes('json')) {
    try {
      JSON.parse(body.toString('utf8'));
    } catch {
      return `${status} body does not parse as JSON`;
    }
  }
  return undefined;
}
