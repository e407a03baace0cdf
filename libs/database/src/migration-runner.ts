import { DataSource } from 'typeorm';
import { dataSourceOptions, DomainDatabase } from './data-source-options';

/**
 * Runs `work` on a single-connection data source holding the domain's advisory lock, so that
 * several replicas (or a migrations Job and starting pods) migrating at once take turns.
 */
async function exclusively<T>(url: string, domain: DomainDatabase, work: (ds: DataSource) => Promise<T>): Promise<T> {
  const dataSource = new DataSource({ ...dataSourceOptions(url, domain, 1), logging: ['error', 'migration'] });
  await dataSource.initialize();
  try {
    await dataSource.query('SELECT pg_advisory_lock(hashtext($1))', [domain.schema]);
    // The migrations table lives in the schema, so the schema must exist before TypeORM looks.
    await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${domain.schema}"`);
    return await work(dataSource);
  } finally {
    // Closing the only connection also releases the session lock.
    await dataSource.destroy();
  }
}

/** Applies pending migrations of one domain; returns the names applied. */
export async function runMigrations(url: string, domain: DomainDatabase): Promise<string[]> {
  const applied = await exclusively(url, domain, (ds) => ds.runMigrations({ transaction: 'each' }));
  return applied.map((m) => m.name);
}

export async function revertLastMigration(url: string, domain: DomainDatabase): Promise<void> {
  await exclusively(url, domain, (ds) => ds.undoLastMigration({ transaction: 'each' }));
}
