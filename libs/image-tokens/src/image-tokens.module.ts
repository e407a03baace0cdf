import { DynamicModule, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { MetricsRegistry } from '@platform/service-kit';
import { DataSource } from 'typeorm';
import { planLimitsFrom, type PlanLimits, type PlanLimitsSettings } from './plan-limits.config';
import { PLAN_LIMITS, TokenService } from './token.service';

/**
 * TokenService over the image schema; needs a DatabaseModule (or TypeORM root) for the image
 * domain: the default connection, or the one named `dataSource` in an app whose default
 * connection is another domain's.
 */
@Module({})
export class ImageTokensModule {
  static forRoot(settings: PlanLimitsSettings, { dataSource }: { dataSource?: string } = {}): DynamicModule {
    return {
      module: ImageTokensModule,
      // Global so that token guards work in the controllers of any feature module.
      global: true,
      providers: [
        { provide: PLAN_LIMITS, useValue: planLimitsFrom(settings) },
        {
          provide: TokenService,
          useFactory: (db: DataSource, limits: PlanLimits, metrics: MetricsRegistry) => new TokenService(db, limits, metrics),
          inject: [getDataSourceToken(dataSource), PLAN_LIMITS, MetricsRegistry],
        },
      ],
      exports: [TokenService],
    };
  }
}
