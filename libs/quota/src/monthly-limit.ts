import type { ApiKeyPrincipal } from '@platform/contracts';

/**
 * The monthly word limit that applies to a key; null means unlimited.
 *
 * A sandbox key is always held to the test quota: its own limit can lower that cap but never
 * raise it, so a sandbox key can not be turned into a free production key by raising its limit.
 * Production keys have exactly their own limit.
 */
export function effectiveMonthlyLimit(key: Pick<ApiKeyPrincipal, 'sandbox' | 'monthlyWordLimit'>, sandboxMonthlyWords: number): number | null {
  if (!key.sandbox) return key.monthlyWordLimit;
  return key.monthlyWordLimit === null ? sandboxMonthlyWords : Math.min(key.monthlyWordLimit, sandboxMonthlyWords);
}
