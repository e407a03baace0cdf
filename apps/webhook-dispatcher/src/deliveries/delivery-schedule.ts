/** The longest pause a receiver's Retry-After can ask for. */
export const MAX_RETRY_AFTER_MS = 3600_000;

/** Retries of events that failed together (a receiver outage) spread out by this share. */
const JITTER = 0.1;

/**
 * The pause after failed attempt `attempt` (1-based) before the next one: the schedule's entry
 * with jitter, or the receiver's Retry-After instead. Null when the schedule has no entry left.
 */
export function retryDelayMs(schedule: readonly number[], attempt: number, retryAfterMs: number | null, random = Math.random): number | null {
  if (attempt > schedule.length) return null;
  if (retryAfterMs !== null) return retryAfterMs;
  return Math.round(schedule[attempt - 1] * 1000 * (1 - JITTER + 2 * JITTER * random()));
}

/** A Retry-After header (seconds or an HTTP date) in ms from `now`, capped; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  const text = value?.trim();
  if (!text) return null;
  // HTTP dates in all three of their forms start with the day's name.
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : /^[A-Za-z]{3}/.test(text) ? Date.parse(text) - now : NaN;
  if (Number.isNaN(ms)) return null;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}
