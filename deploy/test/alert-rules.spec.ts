import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type AlertRule, RULE_GROUPS, RUNBOOK_BASE_URL } from '../monitoring/alert-rules.ts';
import { generatedFiles, prometheusRulesFile } from '../monitoring/generate.ts';
import { documentedMetrics, metricOfSeries } from './metrics-catalog';
import { operationsAnchors } from './operations-doc';
import { selectedMetrics } from './promql';
import { amtool, promtool, toolVersion } from './promtool';
import { SERVICES } from './service-contract';

const repoFile = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const RULES_FILE = repoFile('deploy/monitoring/prometheus-rules.yaml');
const TESTS_FILE = repoFile('deploy/monitoring/prometheus-rules.test.yaml');
const PROMETHEUS_CONFIG = repoFile('deploy/monitoring/prometheus.yml');
const ALERTMANAGER_CONFIG = repoFile('deploy/monitoring/alertmanager.yml');

const rules = RULE_GROUPS.flatMap((group) => group.rules);
const alerts = rules.filter((rule): rule is AlertRule => 'alert' in rule);
const recorded = new Set(rules.flatMap((rule) => ('record' in rule ? [rule.record] : [])));

interface RulesFile {
  groups: { name: string; rules: ({ for?: string } & Record<string, unknown>)[] }[];
}

/** The rules of a rules file, each without its `for`, and the `for`s apart in milliseconds. */
function splitFor(text: string) {
  const rules = (parse(text) as RulesFile).groups.flatMap((group) => group.rules.map((rule) => ({ group: group.name, ...rule })));
  const ms = (duration: string) => {
    const [, amount, unit] = /^(\d+)(ms|s|m|h)$/.exec(duration)!;
    return Number(amount) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit as 'ms'];
  };
  return { rest: rules.map(({ for: _for, ...rule }) => rule), forMs: rules.map((rule) => (rule.for === undefined ? undefined : ms(rule.for))) };
}

interface UnitTest {
  name: string;
  alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[];
}

const version = toolVersion('promtool');
if (!version) console.warn("promtool is not installed: the alert rules are not checked or tested (it comes with Debian's prometheus package)");
const amtoolVersion = toolVersion('amtool');
if (!amtoolVersion) console.warn("amtool is not installed: the Alertmanager routing is not checked (it comes with Debian's prometheus-alertmanager package)");

describe('alert rules', () => {
  it('are what deploy/monitoring/alert-rules.ts gives, in both files (npm run monitoring writes them)', () => {
    for (const [path, text] of Object.entries(generatedFiles())) expect(readFileSync(repoFile(path), 'utf8'), path).toBe(text);
  });

  it("have a copy on a test's time scale: every `for` divided, the expressions, labels and annotations those of production", () => {
    const production = splitFor(readFileSync(RULES_FILE, 'utf8'));
    const scaled = splitFor(prometheusRulesFile({ forDivisor: 180 }));
    expect(scaled.rest).toEqual(production.rest);
    expect(scaled.forMs).toEqual(production.forMs.map((ms) => (ms === undefined ? undefined : Math.round(ms / 180))));
    expect(production.forMs.filter((ms) => ms !== undefined).length).toBeGreaterThan(5);
    expect(() => prometheusRulesFile({ forDivisor: 0.5 })).toThrow('forDivisor must be 1 or more');
  });

  it('each have a summary, a description and a runbook in a section of docs/operations.md', () => {
    const anchors = operationsAnchors();
    const missing = alerts.flatMap((rule) => {
      const { summary, description, runbook_url } = rule.annotations;
      const anchor = runbook_url.startsWith(`${RUNBOOK_BASE_URL}#`) ? runbook_url.slice(RUNBOOK_BASE_URL.length + 1) : undefined;
      return [!summary && 'summary', !description && 'description', !(anchor && anchors.has(anchor)) && `runbook ${runbook_url}`].filter(Boolean).map((what) => `${rule.alert}: ${what}`);
    });
    expect(missing).toEqual([]);
  });

  it('select only metrics that docs/metrics.md lists, or series the rules record', () => {
    const documented = new Map(documentedMetrics().map((metric) => [metric.name, metric]));
    const unknown = rules.flatMap((rule) => selectedMetrics(rule.expr).filter((name) => !recorded.has(name) && !metricOfSeries(name, documented)));
    expect(unknown).toEqual([]);
  });

  it('each have a unit test where they fire and one where they stay quiet', () => {
    const tests = (parse(readFileSync(TESTS_FILE, 'utf8')) as { tests: UnitTest[] }).tests.flatMap((test) => test.alert_rule_test ?? []);
    const cases = (firing: boolean) => new Set(tests.filter((test) => (test.exp_alerts ?? []).length > 0 === firing).map((test) => test.alertname));
    const [fire, quiet] = [cases(true), cases(false)];
    expect(alerts.filter((rule) => !fire.has(rule.alert)).map((rule) => `${rule.alert} never fires`)).toEqual([]);
    expect(alerts.filter((rule) => !quiet.has(rule.alert)).map((rule) => `${rule.alert} never stays quiet`)).toEqual([]);
  });

  describe.skipIf(!version)(`with ${version ?? 'promtool (not installed)'}`, () => {
    it('pass promtool check rules', () => {
      expect(promtool('check', 'rules', RULES_FILE)).toContain('SUCCESS');
    });

    it("pass promtool check rules in the copy on a test's time scale too", () => {
      const dir = mkdtempSync(join(tmpdir(), 'scaled-rules-'));
      try {
        const file = join(dir, 'prometheus-rules.yaml');
        writeFileSync(file, prometheusRulesFile({ forDivisor: 180 }));
        expect(promtool('check', 'rules', file)).toContain('SUCCESS');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('pass their promtool unit tests', () => {
      expect(promtool('test', 'rules', TESTS_FILE)).toContain('SUCCESS');
    });

    it("are loaded by the compose stack's Prometheus, which scrapes every service on its port as job <service>", () => {
      expect(promtool('check', 'config', PROMETHEUS_CONFIG)).toContain('SUCCESS');
      const { scrape_configs } = parse(readFileSync(PROMETHEUS_CONFIG, 'utf8')) as { scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[] };
      const scraped = Object.fromEntries(scrape_configs.map((config) => [config.job_name, config.static_configs.flatMap((targets) => targets.targets)]));
      expect(scraped).toEqual(Object.fromEntries(Object.entries(SERVICES).map(([service, { port }]) => [service, [`${service}:${port}`]])));
    });
  });

  describe.skipIf(!amtoolVersion)(`routed by the example Alertmanager configuration (${amtoolVersion ?? 'amtool not installed'})`, () => {
    it('is a valid Alertmanager configuration', () => {
      expect(amtool('check-config', ALERTMANAGER_CONFIG)).toContain('SUCCESS');
    });

    it.each(alerts.map((rule) => [rule.alert, rule.labels.severity]))('sends %s (%s) to the pager when critical, to tickets otherwise', (alert, severity) => {
      const receiver = amtool('config', 'routes', 'test', `--config.file=${ALERTMANAGER_CONFIG}`, `alertname=${alert}`, `severity=${severity}`, 'namespace=eu-platform').trim();
      expect(receiver).toBe(severity === 'critical' ? 'pager' : 'tickets');
    });
  });
});
