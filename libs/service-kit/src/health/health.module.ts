import { Global, Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { HealthRegistry } from './health.registry';
import { MetricsController } from '../metrics/metrics.controller';
import { MetricsRegistry } from '../metrics/metrics.registry';

/** /health and /metrics, present in every service. */
@Global()
@Module({
  controllers: [HealthController, MetricsController],
  providers: [HealthRegistry, MetricsRegistry],
  exports: [HealthRegistry, MetricsRegistry],
})
export class HealthModule {}
