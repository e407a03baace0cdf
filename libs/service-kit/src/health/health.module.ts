import { Global, Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { HealthRegistry } from './health.registry';
import { MetricsController } from '../metrics/metrics.controller';
import { MetricsModule } from '../metrics/metrics.module';

/** /health and /metrics, present in every service. */
@Global()
@Module({
  imports: [MetricsModule],
  controllers: [HealthController, MetricsController],
  providers: [HealthRegistry],
  exports: [HealthRegistry, MetricsModule],
})
export class HealthModule {}
