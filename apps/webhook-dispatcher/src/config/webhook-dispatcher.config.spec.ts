import { ConfigError, loadConfig } from '@platform/service-kit';
import { describe, expect, it } from 'vitest';
import { WebhookDispatcherConfig } from './webhook-dispatcher.config';

describe('WebhookDispatcherConfig', () => {
  it('defaults to five retries after 5 s, 5 min, 30 min, 2 h and 5 h, a 15 s timeout and no allowed internal hosts', () => {
    expect(loadConfig(WebhookDispatcherConfig, {})).toMatchObject({
      WEBHOOK_RETRY_SCHEDULE: [5, 300, 1800, 7200, 18000],
      WEBHOOK_TIMEOUT_MS: 15_000,
      WEBHOOK_ALLOWED_HOSTS: [],
    });
  });

  it('defaults to 16 attempts per process, two per endpoint, a 3 s connect timeout and a circuit opening for 30 s after five failures', () => {
    expect(loadConfig(WebhookDispatcherConfig, {})).toMatchObject({
      WORKER_CONCURRENCY: 16,
      WEBHOOK_ENDPOINT_CONCURRENCY: 2,
      WEBHOOK_CONNECT_TIMEOUT_MS: 3_000,
      WEBHOOK_CIRCUIT_FAILURES: 5,
      WEBHOOK_CIRCUIT_COOLDOWN_MS: 30_000,
    });
  });

  it('reads a schedule and an allow-list from comma-separated text', () => {
    const config = loadConfig(WebhookDispatcherConfig, { WEBHOOK_RETRY_SCHEDULE: '1, 2,3', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1, ::1,10.0.0.0/8,hooks.internal' });
    expect(config.WEBHOOK_RETRY_SCHEDULE).toEqual([1, 2, 3]);
    expect(config.WEBHOOK_ALLOWED_HOSTS).toEqual(['127.0.0.1', '::1', '10.0.0.0/8', 'hooks.internal']);
  });

  it.each([
    [{ WEBHOOK_RETRY_SCHEDULE: '5,abc' }, /WEBHOOK_RETRY_SCHEDULE=\[5,"abc"\]: each value in WEBHOOK_RETRY_SCHEDULE must be an integer/],
    [{ WEBHOOK_RETRY_SCHEDULE: '5,0' }, /WEBHOOK_RETRY_SCHEDULE=\[5,0\]: each value in WEBHOOK_RETRY_SCHEDULE must not be less than 1/],
    [{ WEBHOOK_RETRY_SCHEDULE: '5,,6' }, /WEBHOOK_RETRY_SCHEDULE=/],
    [{ WEBHOOK_RETRY_SCHEDULE: '-5' }, /WEBHOOK_RETRY_SCHEDULE=/],
    [{ WEBHOOK_RETRY_SCHEDULE: '1.5' }, /WEBHOOK_RETRY_SCHEDULE=/],
    [{ WEBHOOK_TIMEOUT_MS: '10' }, /WEBHOOK_TIMEOUT_MS=10/],
    [{ WEBHOOK_CONNECT_TIMEOUT_MS: '10' }, /WEBHOOK_CONNECT_TIMEOUT_MS=10/],
    [{ WEBHOOK_ENDPOINT_CONCURRENCY: '0' }, /WEBHOOK_ENDPOINT_CONCURRENCY=0/],
    [{ WEBHOOK_CIRCUIT_FAILURES: '0' }, /WEBHOOK_CIRCUIT_FAILURES=0/],
    [{ WEBHOOK_CIRCUIT_COOLDOWN_MS: 'soon' }, /WEBHOOK_CIRCUIT_COOLDOWN_MS=/],
    [{ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,10.0.0.0/40' }, /WEBHOOK_ALLOWED_HOSTS=.*must be a host name, an IP address or a CIDR block/],
  ])('refuses %j, naming the variable', (env, message) => {
    const load = () => loadConfig(WebhookDispatcherConfig, env);
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(message);
  });
});
