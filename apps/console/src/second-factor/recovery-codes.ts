import { createHash, randomInt } from 'node:crypto';

export const RECOVERY_CODE_COUNT = 10;
/** No 0/o, 1/l/i: a code is read off paper. 31 letters, 16 of them: 79 bits each. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const LENGTH = 16;

/** Ten codes as people read them: four groups of four, e.g. `k7mp-x2qa-…`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const code = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return code.match(/.{4}/g)!.join('-');
  });
}

/** As typed: any case, with or without the dashes and spaces. */
const normalized = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

/**
 * SHA-256 rather than a slow hash: 79 random bits are beyond guessing however fast each guess
 * is. The user's id is part of it, so one code's hash says nothing about other users' codes.
 */
export const hashRecoveryCode = (userId: string, code: string): string => createHash('sha256').update(`${userId}:${normalized(code)}`).digest('hex');
