/**
 * Writes the rule files from deploy/monitoring/alert-rules.ts and the dashboards from
 * deploy/monitoring/dashboards.ts: `npm run monitoring`. With `--check` it writes nothing and
 * exits 1 when a file differs from what it would write.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { RULE_GROUPS } from './alert-rules.ts';
import { DASHBOARDS } from './dashboards.ts';

const HEADER = '# Generated from deploy/monitoring/alert-rules.ts by `npm run monitoring`: edit that file, not this one.\n';
/** Where the dashboards go; deploy/base/monitoring's kustomization makes a ConfigMap of each. */
export const DASHBOARDS_DIR = 'deploy/base/monitoring/dashboards';

const yaml = (value: unknown) => HEADER + stringify(value, { lineWidth: 0 });

/** The units of Prometheus durations that alert-rules.ts uses, in milliseconds. */
const DURATION_UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000 };

/** `duration` divided by `divisor`, in whole milliseconds, at least one. */
function divideDuration(duration: string, divisor: number): string {
  const match = /^(\d+)([smh])$/.exec(duration);
  if (!match) throw new Error(`cannot divide the duration ${duration}`);
  return `${Math.max(1, Math.round((Number(match[1]) * DURATION_UNITS[match[2]]) / divisor))}ms`;
}

/**
 * The plain rules file. `forDivisor` shortens every alert's `for` by that factor and changes
 * nothing else: a copy for a Prometheus on a test's time scale (the end-to-end run's), whose
 * expressions are the production ones.
 */
export function prometheusRulesFile({ forDivisor = 1 }: { forDivisor?: number } = {}): string {
  if (!(forDivisor >= 1)) throw new Error(`forDivisor must be 1 or more, not ${forDivisor}`);
  const groups =
    forDivisor === 1
      ? RULE_GROUPS
      : RULE_GROUPS.map((group) => ({ ...group, rules: group.rules.map((rule) => ('for' in rule && rule.for ? { ...rule, for: divideDuration(rule.for, forDivisor) } : rule)) }));
  return yaml({ groups });
}

/** What each generated file holds, by its path from the repository's root. */
export function generatedFiles(): Record<string, string> {
  const rule = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: { name: 'eu-platform' },
    spec: { groups: RULE_GROUPS },
  };
  return {
    'deploy/monitoring/prometheus-rules.yaml': prometheusRulesFile(),
    'deploy/base/monitoring/prometheus-rule.yaml': yaml(rule),
    ...Object.fromEntries(Object.entries(DASHBOARDS).map(([file, dashboard]) => [`${DASHBOARDS_DIR}/${file}`, `${JSON.stringify(dashboard, null, 2)}\n`])),
  };
}

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  let stale = false;
  for (const [path, text] of Object.entries(generatedFiles())) {
    const current = (() => {
      try {
        return readFileSync(root(path), 'utf8');
      } catch {
        return undefined;
      }
    })();
    if (current === text) continue;
    if (check) {
      stale = true;
      console.error(`${path} is not what deploy/monitoring/alert-rules.ts gives: run npm run monitoring`);
    } else {
      mkdirSync(dirname(root(path)), { recursive: true });
      writeFileSync(root(path), text);
      console.log(`wrote ${path}`);
    }
  }
  if (stale) process.exit(1);
}
