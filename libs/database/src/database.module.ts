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

@Module({})
export class DatabaseModule {
  static forRoot(url: string, domain: DomainDatabase, poolSize?: number): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRoot({
          ...dataSourceOptions(url, domain, poolSize),
          // Keep retrying at start: Postgres may come up after the service (compose, Kubernetes).
          retryAttempts: 30,
          retryDelay: 2000,
          // Entities come from each feature's TypeOrmModule.forFeature().
          autoLoadEntities: true,
        }),
      ],
      providers: [DatabaseHealth],
    };
  }
}
