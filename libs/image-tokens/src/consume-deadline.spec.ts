import { dataSourceOptions, imageDomain, runMigrations } from '@platform/database';
import { MetricsRegistry } from '@platform/service-kit';
import { type OwnDependency, startOwnPostgres } from '@platform/testing';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenService } from './token.service';

/** Conversions counted on a Postgres of the test's own, which it freezes (SIGSTOP). */
describe('TokenService when Postgres hangs during a count', () => {
  let postgres: OwnDependency;
  let dataSource: DataSource;
  let tokens: TokenService;

  beforeAll(async () => {
    postgres = await startOwnPostgres();
    await runMigrations(postgres.url, imageDomain);
    dataSource = new DataSource(dataSourceOptions(postgres.url, imageDomain, 2, { statementTimeoutMs: 0, lockTimeoutMs: 0, idleInTransactionTimeoutMs: 0, queryTimeoutMs: 1000 }));
    await dataSource.initialize();
    tokens = new TokenService(dataSource, { free: 500, starter: 10_000, pro: 50_000, business: 250_000 }, new MetricsRegistry());
  }, 120_000);
  afterAll(async () => {
    await dataSource?.destroy();
    await postgres?.destroy();
  });

  it('does not count a conversion the database gets to only after the request gave up on it', async () => {
    const { token, subscriptionId } = await tokens.create('pro');
    expect(await tokens.consume(subscriptionId, 100)).toMatchObject({ usage: 1 });
    postgres.freeze();
    try {
      await expect(tokens.consume(subscriptionId, 100)).rejects.toThrow('Query read timeout');
    } finally {
      postgres.thaw();
    }
    // The server goes on and runs what it received meanwhile; the count finds its deadline past.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await tokens.status(token)).toMatchObject({ usage: 1 });
    expect(await tokens.consume(subscriptionId, 100)).toMatchObject({ usage: 2 });
  });
});
