/**
 * Secrets that may appear in URLs or messages (API keys, reviewer and image tokens, webhook
 * secrets) are recognised by their prefix and masked before anything is logged.
 */
const SECRET = /\b(svc_(?:test|live)_|whsec_|rvw_|img_)[A-Za-z0-9]+/g;

export function redactSecrets(text: string): string {
  return text.replace(SECRET, '$1***');
}

/** Headers whose values are credentials; they are never logged. */
export const SECRET_HEADERS = ['authorization', 'x-access-token', 'cookie', 'webhook-signature'];
