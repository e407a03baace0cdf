// Prometheus beside a local stack: Debian's `prometheus` package scraping every service the
// stack runs as job <service> (the ServiceMonitors' job names, which the rules expect) with the
// platform's alert rules. `npm start` runs one on STACK_PROMETHEUS_PORT with the production rules;
// `npm run e2e` one of its own, on a test's time scale.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { aptInstall, commandExists, isRoot, log, ROOT, StackError } from './common.mjs';

/** The rules file `npm run monitoring` writes from deploy/monitoring/alert-rules.ts. */
export const RULES_FILE = path.join(ROOT, 'deploy/monitoring/prometheus-rules.yaml');
export const DEFAULT_PROMETHEUS_PORT = 3600;

/** STACK_PROMETHEUS=off: the stack runs without Prometheus, and says so. */
export const prometheusWanted = (env = process.env) => env.STACK_PROMETHEUS !== 'off';

/**
 * Makes sure Debian's Prometheus is installed: found on PATH, or installed with apt-get as root
 * like the stack's other servers; anyone else is told how to install it or to leave it out.
 */
export async function ensurePrometheus(optOut) {
  if (commandExists('prometheus')) return;
  if (!isRoot() || !commandExists('apt-get')) {
    throw new StackError(`Prometheus is not installed: install Debian's package (sudo apt-get install prometheus) or put a prometheus binary on PATH; ${optOut} runs without it`);
  }
  await aptInstall(['prometheus']);
  log('prometheus installed');
}

/**
 * Writes `dir/prometheus.yml`, scraping each of `targets` (service name -> base URL) every
 * `interval` and evaluating `rulesFile` as often, and returns the arguments that run Prometheus
 * on 127.0.0.1:`port` with its data in `dir/data`.
 */
export function prometheusArguments({ dir, port, targets, rulesFile = RULES_FILE, interval = '15s' }) {
  mkdirSync(dir, { recursive: true });
  const config = {
    global: { scrape_interval: interval, scrape_timeout: interval, evaluation_interval: interval },
    rule_files: [rulesFile],
    scrape_configs: Object.entries(targets).map(([service, url]) => ({ job_name: service, static_configs: [{ targets: [new URL(url).host] }] })),
  };
  const configFile = path.join(dir, 'prometheus.yml');
  // JSON is YAML too, and needs no library.
  writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);
  return [`--config.file=${configFile}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'];
}

/** Whether Prometheus on `url` has loaded its configuration and serves queries. */
export async function prometheusReady(url) {
  const response = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(2000) }).catch(() => null);
  return response?.status === 200;
}
