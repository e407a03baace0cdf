import { DynamicModule, Injectable, Module, OnModuleInit, type Provider } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { type DatabaseConfig, HealthRegistry, MetricsRegistry } from '@platform/service-kit';
import { DataSource } from 'typeorm';
import { dataSourceOptions, DomainDatabase } from './data-source-options';
import { observePool } from './pool-metrics';

/** What a service's configuration says about its database: where, how many connections, and the deadlines. */
export type DatabaseSettings = Pick<
  DatabaseConfig,
  'DATABASE_URL' | 'DATABASE_POOL_SIZE' | 'DATABASE_STATEMENT_TIMEOUT_MS' | 'DATABASE_LOCK_TIMEOUT_MS' | 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS' | 'DATABASE_QUERY_TIMEOUT_MS'
>;

@Injectable()
class DatabaseHealth implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly health: HealthRegistry,
  ) {}

  onModuleInit() {
    this.health.register('postgres', () => this.dataSource.query('SELECT 1'));
  }
}

function connect(settings: DatabaseSettings, domain: DomainDatabase, name?: string): DynamicModule {
  return TypeOrmModule.forRoot({
    ...dataSourceOptions(settings.DATABASE_URL, domain, settings.DATABASE_POOL_SIZE, {
      statementTimeoutMs: settings.DATABASE_STATEMENT_TIMEOUT_MS,
      lockTimeoutMs: settings.DATABASE_LOCK_TIMEOUT_MS,
      idleInTransactionTimeoutMs: settings.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      queryTimeoutMs: settings.DATABASE_QUERY_TIMEOUT_MS,
    }),
    name,
    // Keep retrying at start: Postgres may come up after the service (compose, Kubernetes).
    retryAttempts: 30,
    retryDelay: 2000,
    // Entities come from each feature's TypeOrmModule.forFeature().
    autoLoadEntities: true,
  });
}

/** The pool's metrics, labelled with the domain's schema. */
function poolMetrics(domain: DomainDatabase, name?: string): Provider {
  return {
    provide: `database pool metrics: ${domain.schema}`,
    inject: [getDataSourceToken(name), MetricsRegistry],
    useFactory: (dataSource: DataSource, metrics: MetricsRegistry) => observePool(dataSource, domain.schema, metrics),
  };
}

@Module({})
export class DatabaseModule {
  static forRoot(settings: DatabaseSettings, domain: DomainDatabase): DynamicModule {
    return { module: DatabaseModule, imports: [connect(settings, domain)], providers: [DatabaseHealth, poolMetrics(domain)] };
  }

  /**
   * A further connection, named `name`, to a domain another service owns and migrates. It is
   * not part of /health: the app serves its own domain while this one is away, and the calls
   * that need it answer 503 meanwhile.
   */
  static secondary(name: string, settings: DatabaseSettings, domain: DomainDatabase): DynamicModule {
    return { module: DatabaseModule, imports: [connect(settings, domain, name)], providers: [poolMetrics(domain, name)] };
  }
}
