import { Injectable } from '@nestjs/common';
import type { AccountMode } from '@platform/contracts';
import { DataSource } from 'typeorm';

export const USAGE_GRANULARITIES = ['day', 'month'] as const;
export type UsageGranularity = (typeof USAGE_GRANULARITIES)[number];

/** Whole periods: `from` is the first day of the first one, `to` the last day of the last one (UTC dates, `YYYY-MM-DD`). */
export interface UsageRange {
  from: string;
  to: string;
  granularity: UsageGranularity;
}

export interface UsageFigures {
  words: number;
  costCents: number;
}

export interface UsagePeriod extends UsageFigures {
  /** `YYYY-MM-DD` for a day, `YYYY-MM` for a month. */
  period: string;
  /** All keys of the account in the key's mode, the key included. */
  account: UsageFigures;
}

/**
 * One row per period of the range, zero when nothing was charged. Reads the daily rollup of the
 * account's keys of one mode: at most a row per key and day, however many charges made them.
 * $1 from, $2 to, $3 granularity, $4 key, $5 account, $6 sandbox.
 */
const HISTORY = `
  WITH totals AS (
    SELECT date_trunc($3::text, d.day)::date AS start,
      sum(d.words) FILTER (WHERE d.key_id = $4::uuid) AS words, sum(d.cost_cents) FILTER (WHERE d.key_id = $4::uuid) AS cost_cents,
      sum(d.words) AS account_words, sum(d.cost_cents) AS account_cost_cents
    FROM translation.key_daily_usage d JOIN translation.api_keys k ON k.id = d.key_id
    WHERE k.account_id = $5 AND k.sandbox = $6 AND d.day BETWEEN $1::date AND $2::date
    GROUP BY 1
  )
  SELECT to_char(p.start, CASE $3::text WHEN 'month' THEN 'YYYY-MM' ELSE 'YYYY-MM-DD' END) AS period,
    COALESCE(t.words, 0) AS words, COALESCE(t.cost_cents, 0) AS cost_cents,
    COALESCE(t.account_words, 0) AS account_words, COALESCE(t.account_cost_cents, 0) AS account_cost_cents
  FROM generate_series($1::date, $2::date, ('1 ' || $3::text)::interval) AS p(start)
  LEFT JOIN totals t ON t.start = p.start::date
  ORDER BY p.start`;

interface HistoryRow {
  period: string;
  words: string;
  cost_cents: string;
  account_words: string;
  account_cost_cents: string;
}

/** Words and cost per day or month of a key and of its account in the key's mode, refunds taken off. */
@Injectable()
export class UsageHistoryService {
  constructor(private readonly dataSource: DataSource) {}

  /** With `keyId` null only the account's figures count; the key's are zero. */
  async history(key: AccountMode & { keyId: string | null }, { from, to, granularity }: UsageRange): Promise<UsagePeriod[]> {
    const rows = await this.dataSource.query<HistoryRow[]>(HISTORY, [from, to, granularity, key.keyId, key.accountId, key.sandbox]);
    return rows.map((row) => ({
      period: row.period,
      words: Number(row.words),
      costCents: Number(row.cost_cents),
      account: { words: Number(row.account_words), costCents: Number(row.account_cost_cents) },
    }));
  }
}
