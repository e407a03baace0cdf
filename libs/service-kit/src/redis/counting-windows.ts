import type { Redis } from 'ioredis';

/** A count kept in Redis under `key` for `windowMs` from its first unit, admitting at most `limit` units. */
export interface CountingWindow {
  key: string;
  limit: number;
  windowMs: number;
}

/** Admitted, or refused because the window at `full` (an index into the windows asked for) has no room until `retryAfterMs` has passed. */
export type Admission = { admitted: true } | { admitted: false; full: number; retryAfterMs: number };

/**
 * Checks every window and, only if all have room, counts one unit in each: in one script, so
 * that requests arriving together cannot all see room that only one of them may take.
 */
const ADMIT = `
for i = 1, #KEYS do
  if tonumber(redis.call('GET', KEYS[i]) or '0') >= tonumber(ARGV[2 * i - 1]) then
    return {i, redis.call('PTTL', KEYS[i])}
  end
end
for i = 1, #KEYS do
  if redis.call('INCR', KEYS[i]) == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[2 * i]) end
end
return {0, 0}`;

/** Gives a unit back to each window still open; a window that has ended meanwhile stays gone. */
const REFUND = `
for i = 1, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then redis.call('DECR', KEYS[i]) end
end
return 0`;

/**
 * Fixed windows shared by all replicas: a unit of work is admitted before it starts, and given
 * back with `refundWindows` when it turns out not to count (a right password, a valid key).
 * Redis errors reach the caller, which decides between failing closed and failing open.
 */
export async function admitToWindows(redis: Redis, windows: CountingWindow[]): Promise<Admission> {
  const args = windows.flatMap((window) => [window.limit, window.windowMs]);
  const [full, pttl] = (await redis.eval(ADMIT, windows.length, ...windows.map((window) => window.key), ...args)) as [number, number];
  // A window without an expiry (PTTL -1) cannot exist here; waiting a whole window is the safe reading of one.
  return full === 0 ? { admitted: true } : { admitted: false, full: full - 1, retryAfterMs: pttl > 0 ? pttl : windows[full - 1].windowMs };
}

export async function refundWindows(redis: Redis, keys: string[]): Promise<void> {
  await redis.eval(REFUND, keys.length, ...keys);
}
