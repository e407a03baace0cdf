import { createScratchDatabase, type ScratchDatabase } from '@platform/testing';
import pg from 'pg';
import { DataSource, QueryFailedError } from 'typeorm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dataSourceOptions, type QueryDeadlines } from './data-source-options';

const domain = { schema: 'public', migrations: [] };

describe('query deadlines against a real Postgres', () => {
  let scratch: ScratchDatabase;
  const opened: DataSource[] = [];

  /** A data source of one connection with the given deadlines; none on the server unless given. */
  async function dataSource(deadlines: Partial<QueryDeadlines>) {
    const source = new DataSource(dataSourceOptions(scratch.url, domain, 1, { statementTimeoutMs: 0, lockTimeoutMs: 0, idleInTransactionTimeoutMs: 0, queryTimeoutMs: 10_000, ...deadlines }));
    opened.push(await source.initialize());
    return source;
  }

  const failure = (work: Promise<unknown>) => work.then(
    () => expect.unreachable('the query succeeded'),
    (error: unknown) => error as QueryFailedError & { driverError: Error & { code?: string } },
  );
  const backendPid = async (source: DataSource) => (await source.query<{ pid: number }[]>('SELECT pg_backend_pid() AS pid'))[0].pid;

  beforeAll(async () => {
    scratch = await createScratchDatabase('platform_deadlines');
    await scratch.query('CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL); INSERT INTO counters VALUES (1, 0)');
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((source) => source.destroy()));
  });
  afterAll(() => scratch?.drop());

  it('has Postgres cancel a statement that runs past the statement timeout (57014)', async () => {
    const source = await dataSource({ statementTimeoutMs: 300 });
    const started = Date.now();
    const error = await failure(source.query('SELECT pg_sleep(5)'));
    expect(error.driverError.code).toBe('57014');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await source.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('has Postgres give up a statement waiting for a locked row past the lock timeout (55P03)', async () => {
    const source = await dataSource({ lockTimeoutMs: 300 });
    const holder = new pg.Client({ connectionString: scratch.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT n FROM counters WHERE id = 1 FOR UPDATE');
      const error = await failure(source.query('UPDATE counters SET n = n + 1 WHERE id = 1'));
      expect(error.driverError.code).toBe('55P03');
    } finally {
      await holder.end();
    }
    expect(await scratch.query('SELECT n FROM counters')).toEqual([{ n: 0 }]);
  });

  it('has Postgres end a session whose transaction sits idle past the idle timeout', async () => {
    const source = await dataSource({ idleInTransactionTimeoutMs: 300 });
    const runner = source.createQueryRunner();
    await runner.startTransaction();
    await runner.query('UPDATE counters SET n = n + 1 WHERE id = 1');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await expect(runner.query('SELECT 1')).rejects.toThrow();
    await runner.release();
    // Rolled back, and the pool's next connection works.
    expect(await source.query('SELECT n FROM counters')).toEqual([{ n: 0 }]);
  });

  it('fails a query without an answer at the client deadline and never hands its connection out again', async () => {
    // The server would let it run: only the client's deadline can end the wait.
    const source = await dataSource({ queryTimeoutMs: 500 });
    const before = await backendPid(source);
    const started = Date.now();
    const error = await failure(source.query('SELECT pg_sleep(3)'));
    expect(error.driverError.message).toBe('Query read timeout');
    expect(Date.now() - started).toBeLessThan(2000);
    // The pool's one connection still owes that answer: reused, this query would wait behind it.
    const next = Date.now();
    const after = await backendPid(source);
    expect(Date.now() - next).toBeLessThan(400);
    expect(after).not.toBe(before);
  });

  it('does the same for statements sent through the pool directly, as prepared statements are', async () => {
    const source = await dataSource({ queryTimeoutMs: 500 });
    const { master: pool } = source.driver as unknown as { master: pg.Pool };
    const before = await backendPid(source);
    await expect(pool.query({ name: 'spec-sleep', text: 'SELECT pg_sleep(3)' })).rejects.toThrow('Query read timeout');
    expect(await backendPid(source)).not.toBe(before);
  });
});
