import { AdminCommandError, parseFlags } from '@platform/service-kit';
import { parseArgs } from 'node:util';
import { DataSource } from 'typeorm';
import { dataSourceOptions, DomainDatabase } from './data-source-options';

/**
 * Runs `work` on a single-connection data source holding the domain's advisory lock, so that
 * several replicas (or a migrations Job and starting pods) migrating at once take turns.
 */
async function exclusively<T>(url: string, domain: DomainDatabase, work: (ds: DataSource) => Promise<T>): Promise<T> {
  const dataSource = new DataSource({ ...dataSourceOptions(url, domain, 1), logging: ['error', 'migration'] });
  await dataSource.initialize();
  try {
    await dataSource.query('SELECT pg_advisory_lock(hashtext($1))', [domain.schema]);
    // The migrations table lives in the schema, so the schema must exist before TypeORM looks.
    await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${domain.schema}"`);
    return await work(dataSource);
  } finally {
    // Closing the only connection also releases the session lock.
    await dataSource.destroy();
  }
}

/** Applies pending migrations of one domain; returns the names applied. */
export async function runMigrations(url: string, domain: DomainDatabase): Promise<string[]> {
  const applied = await exclusively(url, domain, (ds) => ds.runMigrations({ transaction: 'each' }));
  return applied.map((m) => m.name);
}

/**
 * A migration says what reverting it destroys: the tables (`schema.table`) and columns
 * (`schema.table.column`) its `down` drops with their data. `[]` declares a revert that loses
 * nothing; a migration without the declaration is taken to destroy data it cannot name.
 */
export interface DeclaresRevertLoss {
  readonly revertDestroys?: readonly string[];
}

export interface RevertPlan {
  /** The newest applied migration; undefined when none is applied. */
  migration?: string;
  /** What its revert destroys, tables with their row count; undefined when it does not say. */
  destroys?: string[];
  /** Whether reverting destroys data, so that it needs the operator's confirmation. */
  destructive: boolean;
}

/**
 * Reverts the newest applied migration of one domain. One that destroys data (or does not say
 * that it does not) is reverted only when `confirmed`; otherwise, and with `dryRun`, nothing
 * changes. Either way the plan says what was, or would have been, reverted and dropped.
 */
export async function revertLastMigration(
  url: string,
  domain: DomainDatabase,
  { confirmed = false, dryRun = false } = {},
): Promise<{ plan: RevertPlan; reverted: boolean }> {
  return exclusively(url, domain, async (ds) => {
    const plan = await revertPlan(ds, domain);
    if (!plan.migration || dryRun || (plan.destructive && !confirmed)) return { plan, reverted: false };
    await ds.undoLastMigration({ transaction: 'each' });
    return { plan, reverted: true };
  });
}

async function revertPlan(ds: DataSource, { schema }: DomainDatabase): Promise<RevertPlan> {
  const [{ exists }] = await ds.query(`SELECT to_regclass($1) IS NOT NULL AS exists`, [`${schema}.${schema}_migrations`]);
  const [newest] = exists ? await ds.query(`SELECT name FROM "${schema}"."${schema}_migrations" ORDER BY timestamp DESC, id DESC LIMIT 1`) : [];
  if (!newest) return { destructive: false };
  const declared = (ds.migrations.find((migration) => migration.name === newest.name) as DeclaresRevertLoss | undefined)?.revertDestroys;
  if (!declared) return { migration: newest.name, destructive: true };
  const destroys = await Promise.all(
    declared.map(async (name) => {
      if (name.split('.').length !== 2) return `column ${name}`;
      const [{ rows }] = await ds.query(`SELECT count(*)::int AS rows FROM ${name.split('.').map((part) => `"${part}"`).join('.')}`);
      return `table ${name} (${rows} ${rows === 1 ? 'row' : 'rows'})`;
    }),
  );
  return { migration: newest.name, destroys, destructive: destroys.length > 0 };
}

const USAGE = 'migrate:revert [--yes] [--dry-run]';

/**
 * `main.js migrate:revert`: reverts the newest migration of the domain. Without `--yes` a revert
 * that destroys data only names what it would drop and fails (exit code 1) without changing
 * anything. `--dry-run` changes nothing either way and fails the same way when `--yes` would be
 * needed and is missing.
 */
export async function revertCommand(url: string, domain: DomainDatabase, args: string[]): Promise<void> {
  const { values } = parseFlags(USAGE, () => parseArgs({ args, strict: true, options: { yes: { type: 'boolean' }, 'dry-run': { type: 'boolean' } } }));
  const dryRun = values['dry-run'] ?? false;
  const { plan, reverted } = await revertLastMigration(url, domain, { confirmed: values.yes, dryRun });
  const { migration, destroys } = plan;
  if (!migration) return console.log(`${domain.schema}: no migration is applied; nothing to revert`);
  const loss = destroys === undefined ? 'data it does not declare' : destroys.length ? destroys.join(', ') : 'no data';
  if (reverted) return console.log(`${domain.schema}: reverted ${migration}, dropping ${loss}`);
  const wouldDrop = `${domain.schema}: reverting ${migration} would drop ${loss}`;
  if (plan.destructive && !values.yes) throw new AdminCommandError(`${wouldDrop}. Nothing was changed: run migrate:revert --yes to revert and drop it.`);
  console.log(`${wouldDrop}; nothing was changed (dry run)`);
}
