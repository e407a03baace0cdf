import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commandExists } from './common.mjs';
import { prometheusArguments, RULES_FILE } from './prometheus.mjs';

const dir = mkdtempSync(path.join(tmpdir(), 'stack-prometheus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const targets = { 'translate-api': 'http://127.0.0.1:3000', 'batch-worker': 'http://localhost:3300/', console: 'http://[::1]:3500' };

describe("the stack's Prometheus", () => {
  it('scrapes each service at its address as job <service>, with the production rules unless given others', () => {
    const args = prometheusArguments({ dir, port: 3600, targets });
    expect(args).toEqual([`--config.file=${dir}/prometheus.yml`, `--storage.tsdb.path=${dir}/data`, '--web.listen-address=127.0.0.1:3600', '--log.level=warn']);
    const config = JSON.parse(readFileSync(path.join(dir, 'prometheus.yml'), 'utf8'));
    expect(config).toEqual({
      global: { scrape_interval: '15s', scrape_timeout: '15s', evaluation_interval: '15s' },
      rule_files: [RULES_FILE],
      scrape_configs: [
        { job_name: 'translate-api', static_configs: [{ targets: ['127.0.0.1:3000'] }] },
        { job_name: 'batch-worker', static_configs: [{ targets: ['localhost:3300'] }] },
        { job_name: 'console', static_configs: [{ targets: ['[::1]:3500'] }] },
      ],
    });
    prometheusArguments({ dir, port: 3600, targets, rulesFile: '/tmp/rules.yaml', interval: '1s' });
    expect(JSON.parse(readFileSync(path.join(dir, 'prometheus.yml'), 'utf8'))).toMatchObject({ global: { scrape_interval: '1s', evaluation_interval: '1s' }, rule_files: ['/tmp/rules.yaml'] });
  });

  it.skipIf(!commandExists('promtool'))('writes a configuration promtool accepts, its rules loaded', () => {
    prometheusArguments({ dir, port: 3600, targets });
    const output = execFileSync('promtool', ['check', 'config', path.join(dir, 'prometheus.yml')], { encoding: 'utf8' });
    expect(output).toContain('SUCCESS');
    expect(output).toMatch(/SUCCESS: \d+ rules found/);
  });
});
