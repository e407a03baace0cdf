import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { GroupedCalls } from './grouped-calls';

/** One attempt that ended its series with nothing else to change: delivered, or refused for good. */
export interface FinalAttempt {
  eventId: string;
  accountId: string;
  series: string;
  attempt: number;
  url: string;
  statusCode: number | null;
  error: string | null;
  requestHeaders: Record<string, string>;
  responseExcerpt: string | null;
  durationMs: number;
}

/**
 * Records final attempts several to an INSERT (see GroupedCalls). Each caller's promise settles
 * when its own row is stored, or the INSERT failed, so a job still completes only once its
 * attempt is on record. One statement needs no transaction; an attempt already on record (two
 * runs of one job) keeps the first row.
 */
@Injectable()
export class DeliveryLog {
  private readonly inserts: GroupedCalls<FinalAttempt, void>;

  constructor(dataSource: DataSource) {
    this.inserts = new GroupedCalls<FinalAttempt, void>(async (rows) => {
      await dataSource.query(
        `INSERT INTO translation.webhook_deliveries (event_id, account_id, series, attempt, url, status_code, error, duration_ms, request_headers, response_excerpt, final)
         SELECT e, a, s, n, u, c, r, d, h::jsonb, x, true
         FROM unnest($1::text[], $2::uuid[], $3::text[], $4::int[], $5::text[], $6::int[], $7::text[], $8::int[], $9::text[], $10::text[]) AS t(e, a, s, n, u, c, r, d, h, x)
         ON CONFLICT (event_id, series, attempt) DO NOTHING`,
        [
          rows.map((r) => r.eventId),
          rows.map((r) => r.accountId),
          rows.map((r) => r.series),
          rows.map((r) => r.attempt),
          rows.map((r) => r.url),
          rows.map((r) => r.statusCode),
          rows.map((r) => r.error),
          rows.map((r) => r.durationMs),
          rows.map((r) => JSON.stringify(r.requestHeaders)),
          rows.map((r) => r.responseExcerpt),
        ],
      );
      return rows.map(() => undefined);
    });
  }

  record(row: FinalAttempt): Promise<void> {
    return this.inserts.call(row);
  }
}
