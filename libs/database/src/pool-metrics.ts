import type { MetricsRegistry } from '@platform/service-kit';
import type pg from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

type ConnectCallback = (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * The connections of a data source's pool (`pool` is its schema), the requests waiting for one
 * and how long each request took to get one: a pool too small for the load, or a Postgres slow
 * to hand out connections, shows here before requests time out.
 */
export function observePool(dataSource: DataSource, name: string, metrics: MetricsRegistry): void {
  const pool = (dataSource.driver as PostgresDriver).master as pg.Pool;
  metrics.gauge('db_client_connections', 'Connections of the Postgres pool, by state (idle, used)', ['pool', 'state'], (gauge) => {
    gauge.set({ pool: name, state: 'idle' }, pool.idleCount);
    gauge.set({ pool: name, state: 'used' }, pool.totalCount - pool.idleCount);
  });
  metrics.gauge('db_client_connections_max', 'The most connections the Postgres pool opens (DATABASE_POOL_SIZE)', ['pool'], (gauge) => gauge.set({ pool: name }, pool.options.max));
  metrics.gauge('db_client_connection_pending_requests', 'Requests waiting for a connection of the Postgres pool', ['pool'], (gauge) => gauge.set({ pool: name }, pool.waitingCount));
  const wait = metrics.histogram('db_client_connection_wait_time_seconds', 'How long a request took to get a connection of the Postgres pool, connecting included', ['pool'], [
    0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5,
  ], [{ pool: name }]);

  // pg reports a connection handed out, not when it was asked for: the request is timed here.
  const connect = pool.connect.bind(pool) as { (): Promise<pg.PoolClient>; (callback: ConnectCallback): void };
  pool.connect = ((callback?: ConnectCallback) => {
    const waited = wait.startTimer({ pool: name });
    if (!callback) return connect().finally(waited);
    connect((error, client, done) => {
      waited();
      callback(error, client, done);
    });
  }) as typeof pool.connect;
}
