import fetchBadPorts from './fetch-bad-ports.json';

/** Default local ports, one per service, so every service can run side by side on a laptop. */
export const DefaultPort = {
  'translate-api': 3000,
  'image-api': 3100,
  'webhook-dispatcher': 3200,
  'batch-worker': 3300,
  'image-worker': 3400,
  console: 3500,
} as const;
export type ServiceName = keyof typeof DefaultPort;

/**
 * The "bad ports" of the Fetch standard (https://fetch.spec.whatwg.org/#bad-port), as undici has
 * them: fetch, browsers and health checks refuse to connect to them, so no service may listen
 * there. The JSON is shared with tools/stack, which cannot import TypeScript.
 */
export const FETCH_BAD_PORTS: readonly number[] = fetchBadPorts;
