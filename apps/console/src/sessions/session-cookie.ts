/** The cookie that carries a session token; the browser sends it to the console's paths only. */
export const SESSION_COOKIE = 'console_session';
const COOKIE_PATH = '/console';

export interface CookieOptions {
  /** `Secure` everywhere but in development, where the console is served over plain HTTP on loopback. */
  secure: boolean;
  maxAgeSeconds: number;
}

/** `HttpOnly` keeps it from scripts; `SameSite=Lax` keeps it off cross-site POSTs. */
export function sessionCookie(token: string, { secure, maxAgeSeconds }: CookieOptions): string {
  return [`${SESSION_COOKIE}=${token}`, `Path=${COOKIE_PATH}`, `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])].join('; ');
}

export function clearedSessionCookie({ secure }: Pick<CookieOptions, 'secure'>): string {
  return sessionCookie('', { secure, maxAgeSeconds: 0 });
}

/** The session token of a `Cookie` header, if there is one. */
export function sessionToken(header: string | undefined): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE && value.length) return value.join('=') || undefined;
  }
  return undefined;
}
