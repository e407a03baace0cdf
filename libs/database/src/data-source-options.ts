import type { DataSourceOptions } from 'typeorm';

export interface DomainDatabase {
  /** Postgres schema owned by one service domain. */
  schema: string;
  migrations: Function[];
}

export function dataSourceOptions(url: string, domain: DomainDatabase, poolSize = 10): DataSourceOptions {
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
    extra: { max: poolSize, connectionTimeoutMillis: 5000 },
  };
}
