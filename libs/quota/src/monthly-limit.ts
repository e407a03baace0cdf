import type { ApiKeyPrincipal } from '@platform/contracts';

/** What a charge is held to: the key's, and its account's in the key's mode. */
export type LimitedKey = Pick<ApiKeyPrincipal, 'keyId' | 'accountId' | 'sandbox' | 'monthlyWordLimit' | 'account'>;

/** Which limit a refusal names. */
export type MonthlyLimitKind = 'key' | 'account-ceiling' | 'sandbox-quota';

export interface MonthlyLimits {
  /** The key's own limit, set by the customer; null when none. */
  key: number | null;
  /** What all keys of the account in the key's mode may use together; null when unlimited. */
  account: number | null;
  accountKind: Exclude<MonthlyLimitKind, 'key'>;
}

/**
 * The two levels of monthly word limits that apply to a key. Live keys together are held to the
 * operator's ceiling of the account; sandbox keys together to the sandbox quota, or to the
 * ceiling when the operator set it lower. A key's own limit only lowers that further.
 */
export function monthlyLimits(key: Pick<LimitedKey, 'sandbox' | 'monthlyWordLimit' | 'account'>, sandboxMonthlyWords: number): MonthlyLimits {
  const ceiling = key.account.monthlyWordLimit;
  if (!key.sandbox || (ceiling !== null && ceiling < sandboxMonthlyWords)) {
    return { key: key.monthlyWordLimit, account: ceiling, accountKind: 'account-ceiling' };
  }
  return { key: key.monthlyWordLimit, account: sandboxMonthlyWords, accountKind: 'sandbox-quota' };
}

/** The tighter of two limits, null meaning none. */
export function tighter(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  return b === null ? a : Math.min(a, b);
}
