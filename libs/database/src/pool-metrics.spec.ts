import { Test } from '@nestjs/testing';
import { DatabaseConfig, HealthModule, loadConfig, MetricsRegistry } from '@platform/service-kit';
import { testAppEnv } from '@platform/testing';
import type { Histogram } from 'prom-client';
import { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { DatabaseModule } from './database.module';
import { translationDomain } from './domains';

describe('Postgres pool metrics', () => {
  it('shows the connections in use, the requests waiting for one, and how long they waited', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [HealthModule, DatabaseModule.forRoot(loadConfig(DatabaseConfig, testAppEnv({ DATABASE_POOL_SIZE: '1' })), translationDomain)],
    }).compile();
    moduleRef.useLogger(false);
    await moduleRef.init();
    try {
      const dataSource = moduleRef.get(DataSource);
      const metrics = moduleRef.get(MetricsRegistry).registry;
      const value = async (name: string, labels: Record<string, string>) =>
        (await metrics.getSingleMetric(name)!.get()).values.find((v) => Object.entries(labels).every(([key, label]) => v.labels[key] === label))?.value;

      // One connection: the second query waits for the first to give it back.
      const first = dataSource.query('SELECT pg_sleep(0.5)');
      const second = dataSource.query('SELECT 1');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await value('db_client_connections', { pool: 'translation', state: 'used' })).toBe(1);
      expect(await value('db_client_connection_pending_requests', { pool: 'translation' })).toBe(1);
      expect(await value('db_client_connections_max', { pool: 'translation' })).toBe(1);
      await Promise.all([first, second]);

      expect(await value('db_client_connection_pending_requests', { pool: 'translation' })).toBe(0);
      expect(await value('db_client_connections', { pool: 'translation', state: 'idle' })).toBe(1);
      const waited = (await (metrics.getSingleMetric('db_client_connection_wait_time_seconds') as Histogram).get()).values;
      const count = waited.find((v) => v.metricName === 'db_client_connection_wait_time_seconds_count')!.value;
      const quick = waited.find((v) => v.metricName === 'db_client_connection_wait_time_seconds_bucket' && v.labels.le === 0.1)!.value;
      // The start's own queries too; only the second of ours waited long.
      expect(count).toBeGreaterThanOrEqual(2);
      expect(count - quick).toBe(1);
    } finally {
      await moduleRef.close();
    }
  });
});
