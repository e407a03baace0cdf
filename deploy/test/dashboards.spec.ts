import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { RULE_GROUPS } from '../monitoring/alert-rules.ts';
import { DASHBOARD_VARIABLES, DASHBOARDS } from '../monitoring/dashboards.ts';
import { DASHBOARDS_DIR } from '../monitoring/generate.ts';
import { documentedMetrics, metricOfSeries } from './metrics-catalog';
import { selectedMetrics } from './promql';
import { promtool, toolVersion } from './promtool';

interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: { refId: string; expr: string }[];
}

const files = Object.keys(DASHBOARDS);
const read = (file: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../${DASHBOARDS_DIR}/${file}`, import.meta.url)), 'utf8')) as { uid: string; title: string; panels: Panel[] };
const queriesOf = (file: string) =>
  read(file).panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ where: `${file}: ${panel.title} ${target.refId}`, expr: target.expr })));
/** A query as Prometheus gets it once Grafana has put in its variables. */
const resolved = (expr: string) => Object.entries(DASHBOARD_VARIABLES).reduce((text, [variable, value]) => text.replaceAll(variable, value), expr);
const recorded = new Set(RULE_GROUPS.flatMap((group) => group.rules.flatMap((rule) => ('record' in rule ? [rule.record] : []))));
const version = toolVersion('promtool');

describe.each(files)('dashboard %s', (file) => {
  it('is JSON with a uid, a title, and panels with ids of their own that do not overlap', () => {
    const dashboard = read(file);
    expect(dashboard.uid).toMatch(/^[\w-]{1,40}$/);
    expect(dashboard.title).toBeTruthy();
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    const cells = dashboard.panels.flatMap((panel) =>
      Array.from({ length: panel.gridPos.w * panel.gridPos.h }, (_, i) => `${panel.gridPos.x + (i % panel.gridPos.w)},${panel.gridPos.y + Math.floor(i / panel.gridPos.w)}`),
    );
    expect(new Set(cells).size).toBe(cells.length);
    expect(dashboard.panels.every((panel) => panel.gridPos.x + panel.gridPos.w <= 24)).toBe(true);
  });

  it('queries only metrics that docs/metrics.md lists for a service, or series the alert rules record', () => {
    const documented = new Map(documentedMetrics().map((metric) => [metric.name, metric]));
    const queries = queriesOf(file);
    expect(queries.length).toBeGreaterThan(10);
    const unknown = queries.flatMap(({ where, expr }) =>
      selectedMetrics(resolved(expr))
        .filter((name) => !recorded.has(name) && !(metricOfSeries(name, documented)?.services.length))
        .map((name) => `${where}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });
});

describe.skipIf(!version)(`dashboard queries (${version ?? 'promtool not installed'})`, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dashboards-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("parse as Prometheus' own parser reads them (promtool check rules, each as a recording rule)", () => {
    const queries = files.flatMap(queriesOf);
    const rules = queries.map(({ expr }, index) => ({ record: `dashboard:query_${index}`, expr: resolved(expr) }));
    const file = path.join(dir, 'dashboard-queries.yaml');
    writeFileSync(file, stringify({ groups: [{ name: 'dashboards', rules }] }));
    expect(promtool('check', 'rules', file)).toContain(`SUCCESS: ${queries.length} rules found`);
  });
});
