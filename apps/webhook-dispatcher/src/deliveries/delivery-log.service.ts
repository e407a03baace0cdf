import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** One attempt that ended its series with nothing else to change: delivered, or refused for good. */
export interface FinalAttempt {
  eventId: string;
  accountId: string;
  series: string;
  attempt: number;
  url: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

interface Pending {
  row: FinalAttempt;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Records final attempts in shared INSERTs: while one is under way the attempts ending meanwhile
 * gather, and the next INSERT takes all of them, so a busy dispatcher writes a few rows per round
 * trip and an idle one still writes each at once. Each caller's promise settles when its own row
 * is stored (or the INSERT failed), so a job still completes only once its attempt is on record.
 * One statement needs no transaction; an attempt already on record (two runs of one job) keeps
 * the first row.
 */
@Injectable()
export class DeliveryLog {
  private pending: Pending[] = [];
  private flushing?: Promise<void>;

  constructor(private readonly dataSource: DataSource) {}

  record(row: FinalAttempt): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ row, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      const rows = batch.map((entry) => entry.row);
      try {
        await this.dataSource.query(
          `INSERT INTO translation.webhook_deliveries (event_id, account_id, series, attempt, url, status_code, error, duration_ms, final)
           SELECT *, true FROM unnest($1::text[], $2::uuid[], $3::text[], $4::int[], $5::text[], $6::int[], $7::text[], $8::int[])
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
          ],
        );
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.flushing = undefined;
  }
}
