import type { MessageKey } from '../../../i18n/en';

/** What happens to a live review-tier job in a language, given who can review it and the owner's choice. */
export function reviewOutcome(ownReviewers: number, poolAvailable: boolean, pool: boolean): MessageKey {
  const platform = pool && poolAvailable;
  if (ownReviewers > 0) return platform ? 'users.pool.byBoth' : 'users.pool.byOwn';
  return platform ? 'users.pool.byPlatform' : 'users.pool.refused';
}
