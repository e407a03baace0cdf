import { HttpException } from '@nestjs/common';
import { TranslationErrorCode as Code } from '@platform/contracts';
import { ApiError } from './api-error';
import { dependencyOutage } from './dependency-outage';

export interface NormalizedError {
  status: number;
  code: string;
  message: string;
  extra: Record<string, unknown>;
  headers: Record<string, string>;
  /** True when the failure is ours, not the client's: it is logged with its stack. */
  unexpected: boolean;
  /** Set when a dependency outage caused the failure (503): which one, for the log. */
  dependency?: string;
}

const codeByStatus: Record<number, string> = {
  400: 'bad_request',
  401: Code.InvalidKey,
  403: Code.Forbidden,
  404: Code.NotFound,
  405: Code.MethodNotAllowed,
  406: 'not_acceptable',
  408: 'request_timeout',
  413: Code.PayloadTooLarge,
  414: 'uri_too_long',
  415: Code.UnsupportedMediaType,
  422: Code.UnsupportedLanguage,
  429: Code.RateLimited,
  503: Code.ServiceUnavailable,
};

/** Fastify's own errors, raised before a request reaches a controller. */
const fastifyErrors: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: Code.InvalidJson, message: 'The request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: Code.InvalidJson, message: 'The request body is empty but declared as JSON' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: Code.PayloadTooLarge, message: 'The request body exceeds the size limit' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: Code.UnsupportedMediaType, message: 'Unsupported Content-Type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'bad_request', message: 'Content-Length does not match the body' },
  FST_ERR_CTP_INVALID_TYPE: { status: 415, code: Code.UnsupportedMediaType, message: 'Unsupported Content-Type' },
  FST_ERR_BAD_URL: { status: 400, code: 'bad_request', message: 'The URL contains an invalid percent-encoded sequence' },
};

interface FrameworkError {
  code?: string;
  statusCode?: number;
  status?: number;
  message?: string;
  type?: string;
}

function plain(status: number, code: string, message: string, unexpected = false): NormalizedError {
  return { status, code, message, extra: {}, headers: {}, unexpected };
}

/** Maps anything thrown anywhere in a request into one documented shape. */
export function normalizeError(error: unknown): NormalizedError {
  if (error instanceof ApiError) {
    return { status: error.getStatus(), code: error.code, message: error.message, extra: error.extra, headers: error.headers, unexpected: false };
  }
  // Nest wraps Fastify's own errors in an HttpException and keeps the original as `cause`.
  const fw = ((error instanceof HttpException && error.cause) || error || {}) as FrameworkError;
  if (fw.code && fastifyErrors[fw.code]) {
    const known = fastifyErrors[fw.code];
    return plain(known.status, known.code, known.message);
  }
  const dependency = dependencyOutage(error);
  if (dependency) {
    return { ...plain(503, Code.ServiceUnavailable, `Service temporarily unavailable: ${dependency} cannot be reached. Retry later`), dependency };
  }
  // JSON.parse failures surface as SyntaxError with a 400 status from body parsers.
  if (error instanceof SyntaxError && (fw.statusCode === 400 || fw.status === 400)) {
    return plain(400, Code.InvalidJson, 'The request body is not valid JSON');
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    return plain(status, codeByStatus[status] ?? (status >= 500 ? Code.Internal : 'bad_request'), clientMessage(status, error.message), status >= 500);
  }
  const status = fw.statusCode ?? fw.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return plain(status, codeByStatus[status] ?? 'bad_request', fw.message || 'Bad request');
  }
  return plain(500, Code.Internal, 'Internal error', true);
}

function clientMessage(status: number, message: string): string {
  return status >= 500 ? 'Internal error' : message;
}
