import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt with N = 2^15, r = 8, p = 1: 32 MiB of memory and about 50-100 ms of one core per
 * hash, which makes guessing on stolen hashes costly while a sign-in stays quick (OWASP's
 * recommended minimum is N = 2^17 with r = 8 for interactive logins on dedicated hardware; 2^15
 * keeps concurrent sign-ins on a small pod within memory). The parameters are stored with each
 * hash, so stronger ones can be introduced without invalidating existing passwords.
 */
const PARAMETERS = { N: 2 ** 15, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const HASH_BYTES = 32;

function derive(password: string, salt: Buffer, options: { N: number; r: number; p: number }): Promise<Buffer> {
  // scrypt needs 128 * N * r bytes; Node's default ceiling is exactly 32 MiB, so give it room.
  const scryptOptions: ScryptOptions = { ...options, maxmem: 256 * options.N * options.r };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, HASH_BYTES, scryptOptions, (error, key) => (error ? reject(error) : resolve(key))));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, PARAMETERS);
  return ['scrypt', PARAMETERS.N, PARAMETERS.r, PARAMETERS.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of no password anyone has: checked against for unknown addresses, so they take as long as known ones. */
export const UNUSABLE_PASSWORD_HASH = ['scrypt', PARAMETERS.N, PARAMETERS.r, PARAMETERS.p, randomBytes(SALT_BYTES).toString('base64'), randomBytes(HASH_BYTES).toString('base64')].join('$');
