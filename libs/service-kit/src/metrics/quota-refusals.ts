import type { Counter } from 'prom-client';
import type { MetricsRegistry } from './metrics.registry';

/**
 * The one counter of requests refused because a limit was reached (monthly words or conversions,
 * requests per minute), by the limit: both products count into it, each with its own `limit`s.
 */
export function quotaRefusals(metrics: MetricsRegistry, limits: readonly string[]): Counter<string> {
  return metrics.counter(
    'quota_refusals_total',
    'Requests refused because a monthly quota or a rate limit was reached, by the limit',
    ['limit'],
    limits.map((limit) => ({ limit })),
  );
}
