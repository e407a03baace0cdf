import { createScratchDatabase, type ScratchDatabase } from '@platform/testing';
import { DataSource, QueryFailedError } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreparedStatement } from './prepared-statement';

describe('PreparedStatement', () => {
  let scratch: ScratchDatabase;
  let dataSource: DataSource;
  const byName = new PreparedStatement<{ id: number; name: string }>('spec-item-by-name', 'SELECT id, name FROM items WHERE name = $1');

  beforeAll(async () => {
    scratch = await createScratchDatabase('platform_prepared');
    await scratch.query("CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL); INSERT INTO items VALUES (1, 'one'), (2, 'two')");
    // One connection, so that what it has prepared can be read back on it.
    dataSource = await new DataSource({ type: 'postgres', url: scratch.url, extra: { max: 1 } }).initialize();
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await scratch?.drop();
  });

  it('answers with the rows, prepared once on the connection and reused', async () => {
    expect(await byName.rows(dataSource, ['two'])).toEqual([{ id: 2, name: 'two' }]);
    expect(await byName.rows(dataSource, ['none'])).toEqual([]);
    expect(await byName.rows(dataSource, ['one'])).toEqual([{ id: 1, name: 'one' }]);
    const prepared = await dataSource.query<{ name: string; statement: string }[]>('SELECT name, statement FROM pg_prepared_statements');
    expect(prepared).toEqual([{ name: 'spec-item-by-name', statement: byName.text }]);
  });

  it("fails with TypeORM's QueryFailedError carrying the server's error", async () => {
    const failing = new PreparedStatement('spec-failing', "SELECT 1 / 0 AS never WHERE $1::text = 'x'");
    const error = await failing.rows(dataSource, ['x']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueryFailedError);
    expect((error as QueryFailedError).driverError).toMatchObject({ code: '22012' });
    // The connection stays usable.
    expect(await byName.rows(dataSource, ['one'])).toHaveLength(1);
  });

  it('follows a migration that adds a column and an index after it was prepared', async () => {
    expect(await byName.rows(dataSource, ['one'])).toEqual([{ id: 1, name: 'one' }]);
    await dataSource.query("ALTER TABLE items ADD COLUMN note text; CREATE INDEX items_name_idx ON items (name); INSERT INTO items VALUES (3, 'one', 'again')");
    expect(await byName.rows(dataSource, ['one'])).toEqual([
      { id: 1, name: 'one' },
      { id: 3, name: 'one' },
    ]);
  });
});

describe('PreparedStatement behind a pooler that does not keep prepared statements', () => {
  let scratch: ScratchDatabase;
  const sources: DataSource[] = [];
  // One connection: a pooler in transaction mode hands each transaction to any server connection,
  // which here is played by dropping or planting statements on the one connection in between.
  const singleConnection = async () => {
    const dataSource = await new DataSource({ type: 'postgres', url: scratch.url, extra: { max: 1 } }).initialize();
    sources.push(dataSource);
    return dataSource;
  };
  const preparedNames = async (dataSource: DataSource) =>
    (await dataSource.query<{ name: string }[]>('SELECT name FROM pg_prepared_statements')).map((row) => row.name);
  const answer = new PreparedStatement<{ answer: number }>('spec-answer', 'SELECT $1::int AS answer');

  beforeAll(async () => {
    scratch = await createScratchDatabase('platform_unprepared');
  });
  afterAll(async () => {
    await Promise.all(sources.map((dataSource) => dataSource.destroy()));
    await scratch?.drop();
  });

  it('answers when the server connection lacks the statement, and sends it unnamed from then on', async () => {
    const dataSource = await singleConnection();
    expect(await answer.rows(dataSource, [1])).toEqual([{ answer: 1 }]);
    await dataSource.query('DEALLOCATE ALL');
    expect(await answer.rows(dataSource, [2])).toEqual([{ answer: 2 }]);
    expect(await answer.rows(dataSource, [3])).toEqual([{ answer: 3 }]);
    expect(await preparedNames(dataSource)).toEqual([]);
  });

  it('answers when the server connection already holds a statement of that name', async () => {
    const dataSource = await singleConnection();
    await dataSource.query(`PREPARE "spec-answer" AS SELECT 'another connection''s' AS text`);
    expect(await answer.rows(dataSource, [4])).toEqual([{ answer: 4 }]);
    expect(await answer.rows(dataSource, [5])).toEqual([{ answer: 5 }]);
  });

  it('keeps preparing on a data source that never met such a pooler', async () => {
    const dataSource = await singleConnection();
    expect(await answer.rows(dataSource, [6])).toEqual([{ answer: 6 }]);
    expect(await preparedNames(dataSource)).toEqual(['spec-answer']);
  });
});
