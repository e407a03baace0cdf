import { DynamicModule, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { HealthRegistry } from '@platform/service-kit';
import { DataSource } from 'typeorm';
import { dataSourceOptions, DomainDatabase } from './data-source-options';

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

function connect(url: string, domain: DomainDatabase, poolSize?: number, name?: string): DynamicModule {
  return TypeOrmModule.forRoot({
    ...dataSourceOptions(url, domain, poolSize),
    name,
    // Keep retrying at start: Postgres may come up after the service (compose, Kubernetes).
    retryAttempts: 30,
    retryDelay: 2000,
    // Entities come from each feature's TypeOrmModule.forFeature().
    autoLoadEntities: true,
  });
}

@Module({})
export class DatabaseModule {
  static forRoot(url: string, domain: DomainDatabase, poolSize?: number): DynamicModule {
    return { module: DatabaseModule, imports: [connect(url, domain, poolSize)], providers: [DatabaseHealth] };
  }

  /**
   * A further connection, named `name`, to a domain another service owns and migrates. It is
   * not part of /health: the app serves its own domain while this one is away, and the calls
   * that need it answer 503 meanwhile.
   */
  static secondary(name: string, url: string, domain: DomainDatabase, poolSize?: number): DynamicModule {
    return { module: DatabaseModule, imports: [connect(url, domain, poolSize, name)] };
  }
}
