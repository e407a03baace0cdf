import type { DataSourceOptions } from 'typeorm';
import { DeadlineClient } from './deadline-client';

export interface DomainDatabase {
  /** Postgres schema owned by one service domain. */
  schema: string;
  migrations: Function[];
}

/** How long Postgres may take, in milliseconds (DatabaseConfig); 0 leaves a server-side one to the server. */
export interface QueryDeadlines {
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
  /** The client's own deadline per query, for a server too hung to enforce the others. */
  queryTimeoutMs: number;
}

/** A new connection waits this long for Postgres, in the pool's queue or while connecting. */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * Options of a domain's data source. Without `deadlines` (migrations, operator commands) a query
 * may take as long as it takes.
 */
export function dataSourceOptions(url: string, domain: DomainDatabase, poolSize = 10, deadlines?: QueryDeadlines): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    schema: domain.schema,
    migrations: domain.migrations,
    // Each domain keeps its own migration history inside its own schema.
    migrationsTableName: `${domain.schema}_migrations`,
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    extra: { max: poolSize, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, ...(deadlines && poolDeadlines(deadlines)) },
  };
}

/**
 * pg sends the server-side ones as settings of each new session, and enforces `query_timeout`
 * itself; DeadlineClient closes a connection whose query outlived it.
 */
function poolDeadlines(deadlines: QueryDeadlines) {
  return {
    Client: DeadlineClient,
    statement_timeout: deadlines.statementTimeoutMs,
    lock_timeout: deadlines.lockTimeoutMs,
    idle_in_transaction_session_timeout: deadlines.idleInTransactionTimeoutMs,
    query_timeout: deadlines.queryTimeoutMs,
  };
}
