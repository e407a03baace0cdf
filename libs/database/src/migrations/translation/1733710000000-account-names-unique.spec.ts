import { createScratchDatabase, type ScratchDatabase } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translationDomain } from '../../domains';
import { revertLastMigration, runMigrations } from '../../migration-runner';
import { revertAfter, revertThrough } from '../migration-history.testing';
import { AccountNamesUnique1733710000000 } from './1733710000000-account-names-unique';

const MIGRATION = new AccountNamesUnique1733710000000().name;

describe('migration AccountNamesUnique1733710000000', () => {
  let scratch: ScratchDatabase;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    scratch = await createScratchDatabase('platform_account_names_migration');
    await runMigrations(scratch.url, translationDomain);
    await revertThrough(scratch.url, translationDomain, MIGRATION);

    // Names that read alike; the two oldest at the same time, so that the id decides between them.
    const accounts: [string, string, string][] = [
      ['oldest', 'Acme', '2024-01-01T00:00:00Z'],
      ['shouting', 'ACME', '2024-01-01T00:00:00Z'],
      ['padded', '  acme ', '2024-02-01T00:00:00Z'],
      ['wide', 'ａｃｍｅ', '2024-03-01T00:00:00Z'],
      ['other', 'Beispiel GmbH', '2024-01-01T00:00:00Z'],
      ['spaced', ' CONYM ', '2024-01-01T00:00:00Z'],
    ];
    for (const [label, name, createdAt] of accounts) {
      [{ id: ids[label] }] = await scratch.query<{ id: string }>('INSERT INTO translation.accounts (name, created_at) VALUES ($1, $2) RETURNING id', [name, createdAt]);
    }
    expect(await runMigrations(scratch.url, translationDomain)).toContain(MIGRATION);
  });
  afterAll(() => scratch?.drop());

  const nameOf = async (label: string) => (await scratch.query<{ name: string }>('SELECT name FROM translation.accounts WHERE id = $1', [ids[label]]))[0].name;

  it('leaves the oldest of names that read alike as it was (the lower id first), and appends their id to the others', async () => {
    const [kept, renamed] = [ids.oldest, ids.shouting].sort();
    const original = (id: string) => (id === ids.oldest ? 'Acme' : 'ACME');
    const names = await scratch.query<{ id: string; name: string }>('SELECT id, name FROM translation.accounts');
    expect(Object.fromEntries(names.map(({ id, name }) => [id, name]))).toEqual({
      [kept]: original(kept),
      [renamed]: `${original(renamed)} (${renamed})`,
      [ids.padded]: `acme (${ids.padded})`,
      [ids.wide]: `ａｃｍｅ (${ids.wide})`,
      [ids.other]: 'Beispiel GmbH',
      // Surrounding spaces go, as new names are stored.
      [ids.spaced]: 'CONYM',
    });
  });

  it('refuses a name that reads like a taken one: case, letter width and surrounding spaces do not count', async () => {
    for (const lookalike of ['acme', ' ACME', 'Ａｃｍｅ', 'beispiel gmbh', 'conym ']) {
      await expect(scratch.query('INSERT INTO translation.accounts (name) VALUES ($1)', [lookalike]), lookalike).rejects.toThrow(/accounts_name_key_idx/);
    }
    await scratch.query(`INSERT INTO translation.accounts (name) VALUES ('Acme Two')`);
  });

  it('reverts to exact names without dropping anything, keeping the names it gave', async () => {
    await scratch.query(`DELETE FROM translation.accounts WHERE name = 'Acme Two'`);
    const newer = await revertAfter(scratch.url, translationDomain, MIGRATION);
    const reverted = await revertLastMigration(scratch.url, translationDomain);
    expect(reverted).toMatchObject({ reverted: true, plan: { migration: MIGRATION, destroys: [], destructive: false } });
    expect(await nameOf('wide')).toBe(`ａｃｍｅ (${ids.wide})`);
    await scratch.query(`INSERT INTO translation.accounts (name) VALUES ('acme')`);
    await expect(scratch.query(`INSERT INTO translation.accounts (name) VALUES ('acme')`)).rejects.toThrow(/accounts_name_key/);
    await scratch.query(`DELETE FROM translation.accounts WHERE name = 'acme'`);
    expect(await runMigrations(scratch.url, translationDomain)).toEqual([MIGRATION, ...newer]);
  });
});
