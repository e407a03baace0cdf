import type { Pool } from 'pg';
import { DataSource, QueryFailedError } from 'typeorm';

/**
 * A statement that runs on every request, prepared once per pooled connection under its name.
 * TypeORM sends each query unnamed, so Postgres parses and plans it on every call: for the API
 * key lookup that was nine tenths of its time in the server, and for a small translation about a
 * quarter of Postgres's CPU per request.
 * It goes to TypeORM's own pool, so it shares its connections and limits, and a failure is
 * TypeORM's `QueryFailedError`, as from `DataSource.query`. Plans follow schema changes: Postgres
 * re-plans a prepared statement whose tables a migration altered. Name the columns: a prepared
 * `SELECT *` fails once its table gains one.
 */
export class PreparedStatement<Row> {
  constructor(
    /** Unique among the statements a process prepares. */
    readonly name: string,
    readonly text: string,
  ) {}

  async rows(dataSource: DataSource, values: unknown[]): Promise<Row[]> {
    // TypeORM's Postgres driver keeps its pg pool as `master` (it does not export the driver's type).
    const { master: pool } = dataSource.driver as unknown as { master: Pool };
    try {
      const result = await pool.query({ name: this.name, text: this.text, values });
      return result.rows as Row[];
    } catch (error) {
      throw new QueryFailedError(this.text, values, error as Error);
    }
  }
}
