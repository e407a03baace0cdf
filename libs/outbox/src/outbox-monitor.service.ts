import { Injectable } from '@nestjs/common';
import { QueueName } from '@platform/contracts';
import { MetricsRegistry } from '@platform/service-kit';
import type { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';

/** The queues whose jobs go through the outbox; exported as 0 while none of theirs wait. */
const OUTBOX_QUEUES = [QueueName.Batches, QueueName.Webhooks];

interface PendingRow {
  queue: string;
  pending: string;
  oldest_seconds: number;
}

/**
 * Jobs committed to the outbox and not yet on their Bull queue, per queue, read from Postgres
 * when Prometheus scrapes. The relay lives in the process that consumes the queue, so while no
 * such process runs its jobs wait here, and the queue's own gauges (exported by that process)
 * are gone with it: these, exported by the processes that write the rows, still show the backlog.
 */
@Injectable()
export class OutboxMonitor {
  constructor(
    private readonly dataSource: DataSource,
    metrics: MetricsRegistry,
  ) {
    metrics.gauge('outbox_pending_jobs', 'Jobs committed to the outbox and not yet on their queue, read from Postgres on each scrape', ['queue'], (gauge) =>
      this.collect(gauge, (row) => Number(row.pending)),
    );
    metrics.gauge(
      'outbox_oldest_pending_job_age_seconds',
      'How long the oldest job still in the outbox has waited to reach its queue (0 with none), read from Postgres on each scrape',
      ['queue'],
      (gauge) => this.collect(gauge, (row) => Math.max(0, row.oldest_seconds)),
    );
  }

  /** Postgres not answering leaves the gauge without a sample rather than with a wrong 0. */
  private async collect(gauge: Gauge<string>, value: (row: PendingRow) => number): Promise<void> {
    const rows = await this.dataSource
      .query<PendingRow[]>(
        `SELECT queue, count(*) AS pending, extract(epoch FROM now() - min(created_at))::float8 AS oldest_seconds
         FROM translation.outbox WHERE dispatched_at IS NULL GROUP BY queue`,
      )
      .catch(() => null);
    if (!rows) return;
    for (const queue of OUTBOX_QUEUES) gauge.set({ queue }, 0);
    for (const row of rows) gauge.set({ queue: row.queue }, value(row));
  }
}
