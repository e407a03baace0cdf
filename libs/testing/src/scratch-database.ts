import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { testEnv } from './test-env';

/** A database of its own on the test server, for tests that migrate or must not see shared data. */
export interface ScratchDatabase {
  name: string;
  url: string;
  /** Runs SQL in the scratch database. */
  query<T extends pg.QueryResultRow = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

export async function createScratchDatabase(prefix: string, { locale }: { locale?: 'C' } = {}): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  // `C`: as a database initialised with `--locale=C`, whose own case folding knows ASCII only.
  await onDatabase('postgres', (client) => client.query(`CREATE DATABASE "${name}"${locale ? ` TEMPLATE template0 ENCODING 'UTF8' LOCALE '${locale}'` : ''}`));
  return {
    name,
    url: urlOf(name),
    query: (text, values) => onDatabase(name, async (client) => (await client.query(text, values)).rows),
    drop: () => onDatabase('postgres', (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

function urlOf(database: string): string {
  return Object.assign(new URL(testEnv.databaseUrl), { pathname: `/${database}` }).toString();
}

async function onDatabase<T>(database: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: urlOf(database) });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
