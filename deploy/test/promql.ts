import { parser } from '@prometheus-io/lezer-promql';

/**
 * The metric names a PromQL expression selects, as Prometheus' own grammar reads it; throws
 * naming the position of anything it cannot parse.
 */
export function selectedMetrics(expr: string): string[] {
  const names = new Set<string>();
  const cursor = parser.parse(expr).cursor();
  do {
    if (cursor.type.isError) throw new Error(`cannot parse PromQL at ${cursor.from}: ${expr.slice(Math.max(0, cursor.from - 20), cursor.from + 20)} in ${expr}`);
    if (cursor.type.name === 'VectorSelector') {
      const identifier = cursor.node.getChild('Identifier');
      if (identifier) names.add(expr.slice(identifier.from, identifier.to));
    }
  } while (cursor.next());
  return [...names];
}
