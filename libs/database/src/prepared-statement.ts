import { Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import { DataSource, QueryFailedError } from 'typeorm';

/**
 * SQLSTATEs saying the server's prepared statements are not the connection's: a pooler in
 * transaction mode (PgBouncer before 1.21, or with `max_prepared_statements` at 0) hands each
 * transaction to another server connection, which lacks the statement (26000) or already holds
 * one of that name (42P05). Either way the statement did not run.
 */
const NOT_THIS_CONNECTIONS = new Set(['26000', '42P05']);

/** Data sources found behind such a pooler: their statements go unnamed from then on. */
const unnamed = new WeakSet<DataSource>();

const logger = new Logger('Database');

/**
 * How long before the client's own deadline (query_timeout) a statement's write must have
 * happened: room for its answer to travel, and for the two machines' clocks to differ.
 */
const DEADLINE_MARGIN_MS = 1000;

export interface PreparedStatementOptions {
  /**
   * The statement writes only while its caller still waits: it receives, as its last parameter,
   * the moment after which it must change nothing (null without a client deadline). A server that
   * hangs runs what it received once it goes on; by then the service answered 503, and a charge
   * made after all would bill a request nobody got an answer to.
   */
  notAfter?: boolean;
}

/**
 * A statement that runs on every request, prepared once per pooled connection under its name.
 * TypeORM sends each query unnamed, so Postgres parses and plans it on every call: for the API
 * key lookup that was nine tenths of its time in the server, and for a small translation about a
 * quarter of Postgres's CPU per request.
 * It goes to TypeORM's own pool, so it shares its connections and limits, and a failure is
 * TypeORM's `QueryFailedError`, as from `DataSource.query`. Plans follow schema changes: Postgres
 * re-plans a prepared statement whose tables a migration altered. Name the columns: a prepared
 * `SELECT *` fails once its table gains one. Behind a pooler that does not keep prepared
 * statements, the first refusal switches the data source to unnamed statements and the statement
 * is sent again, so no request fails for it.
 */
export class PreparedStatement<Row> {
  constructor(
    /** Unique among the statements a process prepares. */
    readonly name: string,
    readonly text: string,
    private readonly options: PreparedStatementOptions = {},
  ) {}

  async rows(dataSource: DataSource, values: unknown[]): Promise<Row[]> {
    // TypeORM's Postgres driver keeps its pg pool as `master` (it does not export the driver's type).
    const { master: pool } = dataSource.driver as unknown as { master: Pool & { options: { query_timeout?: number } } };
    const named = !unnamed.has(dataSource);
    const queryTimeoutMs = pool.options.query_timeout;
    const args = this.options.notAfter ? [...values, queryTimeoutMs ? new Date(Date.now() + queryTimeoutMs - Math.min(DEADLINE_MARGIN_MS, queryTimeoutMs / 2)) : null] : values;
    try {
      const result = await pool.query({ name: named ? this.name : undefined, text: this.text, values: args });
      return result.rows as Row[];
    } catch (error) {
      if (named && NOT_THIS_CONNECTIONS.has((error as { code?: string }).code ?? '')) {
        if (!unnamed.has(dataSource)) {
          unnamed.add(dataSource);
          logger.warn(`Postgres did not keep a prepared statement (${(error as Error).message}): a connection pooler in transaction mode? Statements go unnamed from now on`);
        }
        return this.rows(dataSource, values);
      }
      throw new QueryFailedError(this.text, args, error as Error);
    }
  }
}
