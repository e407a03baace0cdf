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
});
