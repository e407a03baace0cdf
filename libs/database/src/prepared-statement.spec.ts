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
