import { createHmac, randomBytes, randomInt } from 'node:crypto';

/**
 * Standard Webhooks (https://www.standardwebhooks.com): a secret is `whsec_` + the base64 of a
 * random key; a request carries `webhook-id`, `webhook-timestamp` (Unix seconds) and
 * `webhook-signature` = `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under that key.
 */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** The specification asks for keys of 24 to 64 bytes. */
const SECRET_KEY_BYTES = 32;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(SECRET_KEY_BYTES).toString('base64');
}

/** `msg_` + 27 random base62 characters (about 160 bits), the event id receivers deduplicate on. */
export function generateWebhookEventId(): string {
  let random = '';
  for (let i = 0; i < 27; i++) random += BASE62[randomInt(BASE62.length)];
  return `msg_${random}`;
}

export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret, 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${signature}`;
}

/** The headers that sign one attempt; the timestamp is the attempt's, so receivers can refuse replays. */
export function webhookSignatureHeaders(secret: string, id: string, body: string, now = new Date()): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook(secret, id, timestamp, body) };
}
