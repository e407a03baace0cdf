import { http } from './http-client';

/**
 * A client of the control interface that a stack run for a test suite serves
 * (tools/stack/control-server.mjs): the fault suite's stack, and `npm run e2e`'s. `control` calls
 * any of its routes; `signal` and `start` are the service routes both stacks serve.
 */
export function stackControl(controlUrl: string) {
  async function control<T>(method: string, path: string, json?: unknown): Promise<T> {
    const res = await http<T>(controlUrl, method, path, json === undefined ? {} : { json });
    if (res.status !== 200) throw new Error(`stack control ${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  }
  return {
    control,
    /** Sends `signal` and waits for the process to exit; it stays down until `start`. */
    signal: (service: string, signal: 'SIGKILL' | 'SIGTERM') => control<{ exit: string; ms: number }>('POST', `/services/${service}/signal`, { signal }),
    /** Starts the service again and waits for its /health to answer 200 (unless `wait` is false). */
    start: (service: string, { wait = true } = {}) => control<{ url: string }>('POST', `/services/${service}/start`, { wait }),
  };
}
