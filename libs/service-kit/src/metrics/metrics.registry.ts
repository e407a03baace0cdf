import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/** One Prometheus registry per process, with process metrics and HTTP request metrics. */
@Injectable()
export class MetricsRegistry {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  counter(name: string, help: string, labelNames: string[] = []): Counter<string> {
    const existing = this.registry.getSingleMetric(name);
    if (existing) return existing as Counter<string>;
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  histogram(name: string, help: string, labelNames: string[], buckets: number[]): Histogram<string> {
    const existing = this.registry.getSingleMetric(name);
    if (existing) return existing as Histogram<string>;
    return new Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
  }
}
