import { ConfigError, loadConfig } from '@platform/service-kit';
import { describe, expect, it } from 'vitest';
import { WorkerConfig } from './worker.config';

describe('WorkerConfig', () => {
  it('reads WORKER_CONCURRENCY as an integer', () => {
    expect(loadConfig(WorkerConfig, {}).WORKER_CONCURRENCY).toBe(4);
    expect(loadConfig(WorkerConfig, { WORKER_CONCURRENCY: '16' }).WORKER_CONCURRENCY).toBe(16);
  });

  it.each(['0', '65', '2.5', 'abc'])('refuses WORKER_CONCURRENCY=%s, naming it', (value) => {
    const load = () => loadConfig(WorkerConfig, { WORKER_CONCURRENCY: value });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/WORKER_CONCURRENCY=/);
  });

  it('takes a job of a dead worker up again within seconds by default', () => {
    expect(loadConfig(WorkerConfig, {})).toMatchObject({ QUEUE_LOCK_DURATION_MS: 6000, QUEUE_STALLED_INTERVAL_MS: 1000, QUEUE_MAX_STALLED_COUNT: 3 });
  });

  it('renews locks at a quarter of their duration unless QUEUE_LOCK_RENEW_MS says otherwise', () => {
    expect(loadConfig(WorkerConfig, {}).QUEUE_LOCK_RENEW_MS).toBeUndefined();
    expect(loadConfig(WorkerConfig, { QUEUE_LOCK_DURATION_MS: '6000', QUEUE_LOCK_RENEW_MS: '2000' }).QUEUE_LOCK_RENEW_MS).toBe(2000);
  });

  it.each(['30000', '40000'])('refuses QUEUE_LOCK_RENEW_MS=%s, not below a 30 s lock', (value) => {
    expect(() => loadConfig(WorkerConfig, { QUEUE_LOCK_DURATION_MS: '30000', QUEUE_LOCK_RENEW_MS: value })).toThrow(/QUEUE_LOCK_RENEW_MS=.*below QUEUE_LOCK_DURATION_MS/);
  });
});
