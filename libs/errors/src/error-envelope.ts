import { TranslationErrorCode } from '@platform/contracts';
import { NormalizedError } from './normalize-error';

/** How one service family writes an error body. Each HTTP app picks exactly one. */
export interface ErrorEnvelope {
  render(error: NormalizedError): Record<string, unknown>;
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
