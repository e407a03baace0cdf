import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits after a prefix that names what the token is for (`inv_`, `vfy_`). */
export const newLinkToken = (prefix: string) => prefix + randomBytes(32).toString('base64url');

/** Only this is stored, so that the database alone opens no link. */
export const hashLinkToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A console page (`accept-invitation`, `verify-email`) with the token in the link's fragment,
 * which browsers do not send to servers, so that it stays out of access logs.
 */
export const consoleLink = (publicUrl: string, page: string, token: string) => `${publicUrl.replace(/\/+$/, '')}/console/${page}#token=${token}`;
