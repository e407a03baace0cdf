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
