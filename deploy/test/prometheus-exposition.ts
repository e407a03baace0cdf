/** One metric of a /metrics answer: its type and the label names of each of its series. */
export interface ExposedMetric {
  type: string;
  /** Each distinct set of label names, sorted and comma-joined; `le` and `quantile` left out. */
  labelSets: Set<string>;
}

const LABEL = /([a-zA-Z_]\w*)="(?:[^"\\]|\\.)*"/g;
const BUILT_IN_LABELS = new Set(['le', 'quantile']);

/**
 * Reads the Prometheus text format as prom-client writes it: each metric's `# TYPE` line comes
 * right before its samples, so samples belong to the metric of the last TYPE line.
 */
export function parseExposition(text: string): Map<string, ExposedMetric> {
  const metrics = new Map<string, ExposedMetric>();
  let current: ExposedMetric | undefined;
  for (const line of text.split('\n')) {
    const typed = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (typed) {
      current = { type: typed[2], labelSets: new Set() };
      metrics.set(typed[1], current);
      continue;
    }
    if (line === '' || line.startsWith('#')) continue;
    if (!current) throw new Error(`a sample before any TYPE line: ${line}`);
    const labels = /^[^{\s]+\{(.*)\}\s/.exec(line)?.[1] ?? '';
    const names = [...labels.matchAll(LABEL)].map((match) => match[1]).filter((name) => !BUILT_IN_LABELS.has(name));
    current.labelSets.add(names.sort().join(','));
  }
  return metrics;
}
