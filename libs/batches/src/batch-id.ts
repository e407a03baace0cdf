import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 248 is the largest multiple of 62 below 256: bytes from it up are dropped, so every character is equally likely. */
const UNBIASED_BELOW = 248;

/** `job_` + 24 random base62 characters (about 143 bits). */
export function newBatchJobId(): string {
  let id = '';
  while (id.length < 24) {
    for (const byte of randomBytes(32)) {
      if (byte < UNBIASED_BELOW && id.length < 24) id += BASE62[byte % 62];
    }
  }
  return `job_${id}`;
}

export const BATCH_JOB_ID = /^job_[0-9A-Za-z]{24}$/;
