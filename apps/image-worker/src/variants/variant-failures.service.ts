import { Injectable } from '@nestjs/common';
import type { PendingVariant } from '@platform/image-conversion';
import { MetricsRegistry } from '@platform/service-kit';
import { DataSource } from 'typeorm';

export type VariantState = 'retrying' | 'failed';

/**
 * The variants whose job used up its attempts (image.variant_failures): the sweep counts each
 * such round here and gives a variant up after `maxRounds`, keeping its source for an operator.
 * `image_variants_failed` is the number given up, read from Postgres when Prometheus scrapes.
 */
@Injectable()
export class VariantFailures {
  constructor(
    private readonly dataSource: DataSource,
    metrics: MetricsRegistry,
  ) {
    metrics.gauge(
      'image_variants_failed',
      'Variants given up after VARIANT_MAX_ROUNDS rounds of failed attempts, their sources kept (image.variant_failures)',
      [],
      async (failed) => {
        // Postgres away: no sample rather than a stale one; /health says why.
        const [row] = await this.dataSource.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM image.variant_failures WHERE state = 'failed'`).catch(() => []);
        if (row) failed.set(row.n);
      },
    );
  }

  /**
   * Counts a round that ended at `failedAt` (its job's last failure; a round seen again, by
   * this sweep or another replica's, is not counted twice) and says whether the variant goes on.
   */
  async recordRound(pending: PendingVariant, failedAt: Date, error: string, maxRounds: number): Promise<{ rounds: number; state: VariantState }> {
    const [row] = await this.dataSource.query<{ rounds: number; state: VariantState }[]>(
      `WITH counted AS (
         INSERT INTO image.variant_failures AS f (source_key, image_id, format, state, rounds, last_error, first_failed_at, last_failed_at)
         VALUES ($1, $2, $3, CASE WHEN $6::int <= 1 THEN 'failed' ELSE 'retrying' END, 1, $4, $5, $5)
         ON CONFLICT (source_key) DO UPDATE
           SET rounds = f.rounds + 1, last_error = $4, last_failed_at = $5,
               state = CASE WHEN f.rounds + 1 >= $6::int THEN 'failed' ELSE 'retrying' END
           WHERE f.last_failed_at <> $5
         RETURNING rounds, state
       )
       SELECT rounds, state FROM counted
       UNION ALL
       SELECT rounds, state FROM image.variant_failures WHERE source_key = $1 AND NOT EXISTS (SELECT 1 FROM counted)`,
      [pending.key, pending.imageId, pending.format, error, failedAt, maxRounds],
    );
    return row;
  }

  async stateOf(sourceKey: string): Promise<VariantState | undefined> {
    const [row] = await this.dataSource.query<{ state: VariantState }[]>(`SELECT state FROM image.variant_failures WHERE source_key = $1`, [sourceKey]);
    return row?.state;
  }

  /** Forgets variants still retrying whose source is gone: made in the end. */
  async forgetMade(remaining: string[], sweptAt: Date): Promise<void> {
    await this.dataSource.query(`DELETE FROM image.variant_failures WHERE state = 'retrying' AND last_failed_at < $2 AND NOT (source_key = ANY($1::text[]))`, [remaining, sweptAt]);
  }
}
