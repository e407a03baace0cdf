import { TranslationErrorCode } from '@platform/contracts';
import type { FastifyRequest } from 'fastify';
import { NormalizedError } from './normalize-error';

/**
 * How one service family writes an error body. Each HTTP app picks exactly one; an app that also
 * speaks other vendors' APIs picks one per path with `envelopeByPath`.
 */
export interface ErrorEnvelope {
  /** `request` is absent for failures below HTTP (a malformed request line). */
  render(error: NormalizedError, request?: FastifyRequest): Record<string, unknown>;
  /** The status to answer with, when the envelope's API uses other statuses than ours. */
  status?(error: NormalizedError, request?: FastifyRequest): number;
}

/** One envelope for the paths `matches` accepts. */
export interface PathEnvelope {
  matches(path: string): boolean;
  envelope: ErrorEnvelope;
}

/** The first of `routes` whose paths include the request's, else `fallback`. */
export function envelopeByPath(routes: PathEnvelope[], fallback: ErrorEnvelope): ErrorEnvelope {
  const pick = (request?: FastifyRequest) => (request && routes.find((route) => route.matches(request.url.split('?')[0]))?.envelope) || fallback;
  return {
    render: (error, request) => pick(request).render(error, request),
    status: (error, request) => pick(request).status?.(error, request) ?? error.status,
  };
}

/** Translation service: `{"error": code, "message": text}` plus documented extras. */
export const translationEnvelope: ErrorEnvelope = {
  render: ({ code, message, extra }) => ({ error: code, message, ...extra }),
};

/**
 * Console: the translation service's shape, but an invalid field is `invalid_request`, as a
 * browser form has no languages to be wrong about (the public API keeps its documented code).
 */
export const consoleEnvelope: ErrorEnvelope = {
  render: ({ code, message, extra }) => ({ error: code === TranslationErrorCode.UnsupportedLanguage ? 'invalid_request' : code, message, ...extra }),
};

/**
 * Image service: `{"error_message", "error_fatal_status"}`. Fatal means retrying with the same
 * token cannot succeed (token unknown or subscription inactive); everything else may succeed later
 * or with other input.
 */
export const imageEnvelope: ErrorEnvelope = {
  render: ({ status, message, extra }) => ({
    error_message: message,
    error_fatal_status: status === 401 || status === 403,
    ...extra,
  }),
};
