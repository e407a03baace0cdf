import createClient, { type Middleware } from 'openapi-fetch';
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

/** The data of a call, or an ApiProblem carrying the API's own message. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok && data !== undefined) return data;
  const envelope = (error ?? {}) as Envelope;
  const message = typeof envelope.message === 'string' ? envelope.message : `${response.status} ${response.statusText}`;
  throw new ApiProblem(response.status, typeof envelope.error === 'string' ? envelope.error : 'unknown', message);
}
