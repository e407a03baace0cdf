/** Paths that carry no customer data: kubelet probes and Prometheus, answered over plain HTTP and not traced. */
const OPERATIONAL_PATHS = new Set(['/health', '/health/live', '/metrics']);

/** Whether a request URL (its query ignored) is one of the operational paths. */
export const isOperationalPath = (url: string): boolean => OPERATIONAL_PATHS.has(url.split('?')[0]);
