import { createHash, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random characters after the prefix: 40 base62 characters are about 238 bits. */
export const API_KEY_RANDOM_LENGTH = 40;

/** Characters of the secret kept in clear so that customers can tell their keys apart. */
const HINT_LENGTH = 4;

/**
 * The published format. The upper bound only keeps absurd headers away from hashing; keys we
 * issue are always exactly `API_KEY_RANDOM_LENGTH` long.
 */
const API_KEY_FORMAT = /^svc_(?:test|live)_[0-9A-Za-z]{32,128}$/;

export function apiKeyPrefix(sandbox: boolean): string {
  return sandbox ? 'svc_test_' : 'svc_live_';
}

/** A new plain key. `randomInt` draws each character uniformly, so no base62 digit is favoured. */
export function generateApiKey(sandbox: boolean): string {
  let random = '';
  for (let i = 0; i < API_KEY_RANDOM_LENGTH; i++) random += BASE62[randomInt(BASE62.length)];
  return apiKeyPrefix(sandbox) + random;
}

export function isWellFormedApiKey(candidate: string): boolean {
  return API_KEY_FORMAT.test(candidate);
}

/**
 * Keys carry enough entropy that a fast unsalted hash cannot be reversed, and a deterministic
 * hash is what lets authentication find the key with one indexed lookup.
 */
export function hashApiKey(plainKey: string): string {
  return createHash('sha256').update(plainKey, 'utf8').digest('hex');
}

export function apiKeyHint(plainKey: string): string {
  return plainKey.slice(-HINT_LENGTH);
}
