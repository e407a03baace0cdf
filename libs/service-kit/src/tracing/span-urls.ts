import type { Attributes } from '@opentelemetry/api';
import { redactSecrets } from '../logging/redact';

/**
 * What spans may record of a request's URL, which travels to whoever runs the trace backend:
 *
 * - a request to this service: its path and query with secrets masked, as in the request log;
 * - a request this service makes: its origin only. A webhook URL is the customer's, and
 *   receivers often take a credential in the path (`/hooks/T0/B0/xyz`) that no prefix marks.
 */
export function incomingUrlAttributes(url: string): Attributes {
  const [path, query] = redactSecrets(url).split(/\?(.*)/s, 2);
  return { 'url.path': path, ...(query ? { 'url.query': query } : {}) };
}

/** Overrides the full URL with its origin, and drops path and query where an instrumentation records them apart. */
export function outgoingUrlAttributes(origin: string): Attributes {
  return { 'url.full': origin, 'url.path': undefined, 'url.query': undefined };
}

/** The origin of a request as Node's http.request takes it. */
export function originOf(options: { protocol?: string | null; hostname?: string | null; host?: string | null; port?: number | string | null }): string {
  const host = options.hostname ?? options.host ?? 'localhost';
  // An IPv6 address is bracketed in a URL; Node gives it bare.
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `${options.protocol ?? 'http:'}//${bracketed}${options.port ? `:${options.port}` : ''}`;
}
