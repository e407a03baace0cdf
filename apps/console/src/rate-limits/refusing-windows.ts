import { ApiError } from '@platform/errors';
import { admitToWindows, type CountingWindow } from '@platform/service-kit';
import type { Redis } from 'ioredis';

export const HOUR_MS = 3600_000;
export const DAY_MS = 24 * HOUR_MS;

/** A wait as a person reads it: minutes below two hours, hours beyond. */
export function waitInWords(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `${Math.ceil(minutes / 60)} hours`;
}

/** A counting window, and what a person is told when it is full. */
export type RefusingWindow = CountingWindow & { refusal: (wait: string) => string };

/**
 * Counts one more in every window when all have room; otherwise 429 `rate_limited` with
 * Retry-After and the full window's refusal. Redis errors pass on (503): the console's limits
 * fail closed.
 */
export async function admitOrRefuse(redis: Redis, windows: RefusingWindow[]): Promise<void> {
  const admission = await admitToWindows(redis, windows);
  if (!admission.admitted) throw ApiError.rateLimited(windows[admission.full].refusal(waitInWords(admission.retryAfterMs)), admission.retryAfterMs / 1000);
}
