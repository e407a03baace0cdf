import { createHash, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 40;
const HINT_LENGTH = 4;
const TOKEN_FORMAT = /^img_[0-9A-Za-z]{40}$/;

/** `img_` + 40 base62 characters (about 238 bits); the prefix is what the logger masks. */
export function generateAccessToken(): string {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(BASE62.length)];
  return `img_${random}`;
}

export function isWellFormedAccessToken(candidate: string): boolean {
  return TOKEN_FORMAT.test(candidate);
}

/** High-entropy secrets: an unsalted SHA-256 cannot be reversed and allows one indexed lookup. */
export function hashAccessToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function accessTokenHint(token: string): string {
  return token.slice(-HINT_LENGTH);
}
