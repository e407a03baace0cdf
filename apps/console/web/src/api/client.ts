import createClient, { type Middleware } from 'openapi-fetch';
import { t } from '../i18n/i18n';
import type { paths } from './session-api';

/** The session's CSRF token, from sign-in or /me; every state-changing call sends it. */
let csrfToken: string | undefined;
export const setCsrfToken = (token: string | undefined) => {
  csrfToken = token;
};

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const csrf: Middleware = {
  onRequest({ request }) {
    if (csrfToken && UNSAFE_METHODS.has(request.method)) request.headers.set('x-csrf-token', csrfToken);
    return request;
  },
};

/** The console's session API, typed from the OpenAPI document it serves; the cookie rides along. */
export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });
api.use(csrf);

/** What the session API answers on failure: `{ error, message }`, its message meant for people. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface Envelope {
  error?: unknown;
  message?: unknown;
}

/**
 * The data of a call, or an ApiProblem carrying the API's own message; a call that got no answer
 * (offline, the console restarting) or no envelope (a proxy's error page) gets one in words too.
 */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call.catch((failure: unknown) => {
    // fetch rejects with a TypeError when no answer came; an abort is the caller's and stays as it is.
    if (failure instanceof TypeError) throw new ApiProblem(0, 'unreachable', t('error.unreachable'));
    throw failure;
  });
  if (response.ok && data !== undefined) return data;
  const envelope = (error ?? {}) as Envelope;
  const message = typeof envelope.message === 'string' ? envelope.message : t('error.serverStatus', { status: response.status });
  throw new ApiProblem(response.status, typeof envelope.error === 'string' ? envelope.error : 'unknown', message);
}
