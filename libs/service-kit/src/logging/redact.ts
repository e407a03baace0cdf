/**
 * Secrets that may appear in URLs or messages (API keys, reviewer and image tokens, webhook
 * secrets) are recognised by their prefix and masked before anything is logged. No word
 * boundary is required: `_` is a word character, so `access_token=x_img_...` must match too.
 */
const SECRET = /(svc_(?:test|live)_|whsec_|rvw_|img_)[A-Za-z0-9]+/g;

/** Percent-escapes of ASCII characters, the only ones a secret is made of. */
const ASCII_ESCAPE = /%([0-7][0-9A-Fa-f])/g;

/**
 * A percent-encoded secret (`/access-token/%69mg_...`) reaches the handler decoded, so it is
 * decoded before masking, as often as it was encoded; the logged text is the decoded form.
 */
function decodeAscii(text: string): string {
  let decoded = text;
  for (let round = 0; round < 3; round++) {
    const next = decoded.replace(ASCII_ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === decoded) break;
    decoded = next;
  }
  return decoded;
}

export function redactSecrets(text: string): string {
  return decodeAscii(text).replace(SECRET, '$1***');
}

/** Masks secrets in every string of a log record (nested objects such as `err` included). */
export function redactRecord<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return redactSecrets(value) as T;
  if (depth > 3 || value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Error) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, redactRecord(inner, depth + 1)])) as T;
}

/** Headers whose values are credentials; they are never logged. */
export const SECRET_HEADERS = ['authorization', 'x-access-token', 'cookie', 'webhook-signature'];
