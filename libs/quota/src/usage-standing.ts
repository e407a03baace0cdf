import { tighter, type MonthlyLimits } from './monthly-limit';

/** Where a key stands against its limits this month; null limits and remainders mean unlimited. */
export interface UsageStanding {
  /** The key's own limit or its account's, whichever is lower. */
  limit: number | null;
  /** Words the key can still use: within its own limit and what its account has left, never negative. */
  remaining: number | null;
  account: { limit: number | null; remaining: number | null };
}

const left = (limit: number | null, words: number) => (limit === null ? null : Math.max(0, limit - words));

export function usageStanding(limits: MonthlyLimits, keyWords: number, accountWords: number): UsageStanding {
  const accountLeft = left(limits.account, accountWords);
  return {
    limit: tighter(limits.key, limits.account),
    remaining: tighter(left(limits.key, keyWords), accountLeft),
    account: { limit: limits.account, remaining: accountLeft },
  };
}
