import { ApiError } from '@platform/errors';
import type { UsageGranularity, UsageRange } from './usage-history.service';

/** The longest ranges one request may ask for: a bit more than a year of days, five years of months. */
export const MAX_USAGE_PERIODS: Record<UsageGranularity, number> = { day: 400, month: 60 };

export interface UsageRangeQuery {
  from?: string;
  to?: string;
  granularity?: UsageGranularity;
}

const DAY_MS = 86_400_000;

/**
 * The whole periods a history covers, in UTC. `to` defaults to today; `from` to the first day of
 * `to`'s month (by day) or to the month eleven months before `to`'s (by month: a year). By
 * month, `from` and `to` stand for their months, which are reported whole.
 */
export function usageRange(query: UsageRangeQuery, today = new Date()): UsageRange {
  const granularity = query.granularity ?? 'day';
  const given = query.from === undefined ? undefined : parseDay('from', query.from);
  const to = query.to === undefined ? utcDay(today) : parseDay('to', query.to);
  let from = given ?? defaultFrom(granularity, to);
  if (from > to) throw ApiError.invalidParameter(`from: ${iso(from)} is after to (${iso(to)})`);

  let last = to;
  let periods = (to.getTime() - from.getTime()) / DAY_MS + 1;
  if (granularity === 'month') {
    from = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), 1));
    last = new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth() + 1, 0));
    periods = (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth() + 1;
  }
  const max = MAX_USAGE_PERIODS[granularity];
  if (periods > max) {
    throw ApiError.invalidParameter(
      `from, to: ${iso(from)} to ${iso(last)} spans ${periods} ${granularity}s; granularity=${granularity} allows at most ${max}` +
        (granularity === 'day' ? ' (use granularity=month for longer ranges)' : ''),
    );
  }
  return { from: iso(from), to: iso(last), granularity };
}

function defaultFrom(granularity: UsageGranularity, to: Date): Date {
  return new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth() - (granularity === 'month' ? 11 : 0), 1));
}

function parseDay(name: string, value: string): Date {
  // Year 0 is valid ISO 8601 but not a Postgres date.
  const day = /^(?!0000)\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : undefined;
  // A date that does not exist (2025-02-30) parses to another day, or to an invalid date.
  if (!day || Number.isNaN(day.getTime()) || iso(day) !== value) {
    throw ApiError.invalidParameter(`${name}: ${JSON.stringify(value)} is not a date; expected YYYY-MM-DD (UTC)`);
  }
  return day;
}

function utcDay(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

function iso(day: Date): string {
  return day.toISOString().slice(0, 10);
}
