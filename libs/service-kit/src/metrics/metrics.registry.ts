import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, type LabelValues, Registry } from 'prom-client';

type Labels = LabelValues<string>;
type GaugeCollector = (gauge: Gauge<string>) => Promise<void> | void;

/**
 * One Prometheus registry per process, with process metrics. Every metric is listed with its
 * labels in docs/metrics.md; labels only ever take a bounded set of values (never a key, an
 * account, a URL or a text).
 *
 * `known` label values are exported as 0 from the start, so that rates and alerts see a series
 * before the first event rather than none.
 */
@Injectable()
export class MetricsRegistry {
  readonly registry = new Registry();
  private readonly collectors = new Map<string, GaugeCollector[]>();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  counter(name: string, help: string, labelNames: string[] = [], known: Labels[] = []): Counter<string> {
    const counter = (this.registry.getSingleMetric(name) as Counter<string> | undefined) ?? new Counter({ name, help, labelNames, registers: [this.registry] });
    for (const labels of known) counter.inc(labels, 0);
    return counter;
  }

  histogram(name: string, help: string, labelNames: string[], buckets: number[], known: Labels[] = []): Histogram<string> {
    const histogram = (this.registry.getSingleMetric(name) as Histogram<string> | undefined) ?? new Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
    for (const labels of known) histogram.zero(labels);
    return histogram;
  }

  /**
   * A gauge read when Prometheus scrapes: `collect` sets its values, after a reset so that what is
   * gone is not exported. Asked for again (a second pool, another queue), the gauge runs each
   * caller's `collect`.
   */
  gauge(name: string, help: string, labelNames: string[], collect: GaugeCollector): Gauge<string> {
    const collectors = this.collectors.get(name);
    if (collectors) {
      collectors.push(collect);
      return this.registry.getSingleMetric(name) as Gauge<string>;
    }
    const all = [collect];
    this.collectors.set(name, all);
    const gauge: Gauge<string> = new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      collect: async () => {
        gauge.reset();
        await Promise.all(all.map((each) => each(gauge)));
      },
    });
    return gauge;
  }
}

/** Every combination of the given label values: `combinations({ a: ['1', '2'], b: ['x'] })`. */
export function combinations(values: Record<string, readonly string[]>): Labels[] {
  return Object.entries(values).reduce<Labels[]>((sets, [name, options]) => sets.flatMap((set) => options.map((value) => ({ ...set, [name]: value }))), [{}]);
}
