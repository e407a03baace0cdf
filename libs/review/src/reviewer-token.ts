import { apiKeyHint, hashApiKey } from '@platform/auth';
import { randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 40;
const TOKEN_FORMAT = /^rvw_[0-9A-Za-z]{40}$/;

/** `rvw_` + 40 base62 characters: a prefix of its own, so a reviewer token never passes as an API key. */
export function generateReviewerToken(): string {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(BASE62.length)];
  return `rvw_${random}`;
}

export function isWellFormedReviewerToken(candidate: string): boolean {
  return TOKEN_FORMAT.test(candidate);
}

/** Same reasoning as API keys: high-entropy secrets, so an unsalted SHA-256 is enough and indexable. */
export const hashReviewerToken = hashApiKey;
export const reviewerTokenHint = apiKeyHint;
