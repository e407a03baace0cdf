import { Global, Module } from '@nestjs/common';
import { MetricsRegistry } from './metrics.registry';

/**
 * The process's metrics registry on its own, for contexts without HTTP (operator commands) whose
 * services still count what they refuse.
 */
@Global()
@Module({ providers: [MetricsRegistry], exports: [MetricsRegistry] })
export class MetricsModule {}
