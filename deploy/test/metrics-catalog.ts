import type { ServiceName } from '@platform/contracts';
import { readFileSync } from 'node:fs';
import { SERVICES } from './service-contract';

export interface DocumentedMetric {
  name: string;
  type: string;
  labels: string[];
  /** The services that export it; empty for series that come from the cluster (kube-state-metrics, the kubelet). */
  services: ServiceName[];
}

const METRICS_DOC = new URL('../../docs/metrics.md', import.meta.url);
const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];
const code = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]);

/**
 * The metrics docs/metrics.md lists: every row of its tables whose first cell names a metric in
 * backticks, with its type, its labels and the services that export it (`all`, names, or
 * `cluster` for series Prometheus scrapes from Kubernetes).
 */
export function documentedMetrics(): DocumentedMetric[] {
  const rows = readFileSync(METRICS_DOC, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));
  return rows.map(([metric, type, labels, services]) => {
    const [name] = code(metric);
    const named = code(services);
    if (services !== 'all' && services !== 'cluster' && named.some((service) => !SERVICE_NAMES.includes(service as ServiceName))) {
      throw new Error(`docs/metrics.md: ${name} names unknown services: ${services}`);
    }
    return {
      name,
      type,
      labels: code(labels).sort(),
      services: services === 'all' ? SERVICE_NAMES : services === 'cluster' ? [] : (named as ServiceName[]),
    };
  });
}

/** Series of a histogram or summary are named after their metric with these endings. */
const SERIES_SUFFIXES = ['_bucket', '_sum', '_count'];

/** The documented metric a series name (as written in PromQL) belongs to. */
export function metricOfSeries(series: string, documented: ReadonlyMap<string, DocumentedMetric>): DocumentedMetric | undefined {
  const direct = documented.get(series);
  if (direct) return direct;
  const suffix = SERIES_SUFFIXES.find((ending) => series.endsWith(ending));
  const metric = suffix && documented.get(series.slice(0, -suffix.length));
  return metric && ['histogram', 'summary'].includes(metric.type) ? metric : undefined;
}
