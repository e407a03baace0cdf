import { DataSource } from 'typeorm';
import { dataSourceOptions, DomainDatabase } from './data-source-options';

async function withDataSource<T>(url: string, domain: DomainDatabase, work: (ds: DataSource) => Promise<T>): Promise<T> {
  const dataSource = new DataSource({ ...dataSourceOptions(url, domain, 1), logging: ['error', 'migration'] });
  await dataSource.initialize();
  try {
    // The migrations table lives in the schema, so the schema must exist before TypeORM looks.
    await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${domain.schema}"`);
    return await work(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** Applies pending migrations of one domain; safe to run concurrently from several replicas. */
export async function runMigrations(url: string, domain: DomainDatabase): Promise<string[]> {
  return withDataSource(url, domain, async (ds) => {
    // A session advisory lock (the pool has one connection) serialises concurrent migrators.
    await ds.query('SELECT pg_advisory_lock(hashtext($1))', [domain.schema]);
    try {
      const applied = await ds.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await ds.query('SELECT pg_advisory_unlock(hashtext($1))', [domain.schema]);
    }
  });
}

export async function revertLastMigration(url: string, domain: DomainDatabase): Promise<void> {
  await withDataSource(url, domain, (ds) => ds.undoLastMigration({ transaction: 'each' }));
}
