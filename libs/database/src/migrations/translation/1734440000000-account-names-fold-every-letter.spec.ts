import { createScratchDatabase, type ScratchDatabase } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translationDomain } from '../../domains';
import { revertLastMigration, runMigrations } from '../../migration-runner';
import { revertAfter, revertThrough } from '../migration-history.testing';
import { AccountNamesFoldEveryLetter1734440000000 } from './1734440000000-account-names-fold-every-letter';

const MIGRATION = new AccountNamesFoldEveryLetter1734440000000().name;

// On a database whose locale is C, where lower() folds ASCII letters only.
describe('migration AccountNamesFoldEveryLetter1734440000000', () => {
  let scratch: ScratchDatabase;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    scratch = await createScratchDatabase('platform_account_names_fold', { locale: 'C' });
    await runMigrations(scratch.url, translationDomain);
    await revertThrough(scratch.url, translationDomain, MIGRATION);
    const accounts: [string, string, string][] = [
      ['older', 'école du Nord', '2024-01-01T00:00:00Z'],
      ['shouting', 'ÉCOLE DU NORD', '2024-02-01T00:00:00Z'],
      ['other', 'Öffnen GmbH', '2024-01-01T00:00:00Z'],
    ];
    for (const [label, name, createdAt] of accounts) {
      [{ id: ids[label] }] = await scratch.query<{ id: string }>('INSERT INTO translation.accounts (name, created_at) VALUES ($1, $2) RETURNING id', [name, createdAt]);
    }
    expect(await runMigrations(scratch.url, translationDomain)).toContain(MIGRATION);
  });
  afterAll(() => scratch?.drop());

  const names = async () => Object.fromEntries((await scratch.query<{ id: string; name: string }>('SELECT id, name FROM translation.accounts')).map(({ id, name }) => [id, name]));

  it('keeps the older of two names that differ only in the case of non-ASCII letters, and appends its id to the later one', async () => {
    expect(await names()).toEqual({ [ids.older]: 'école du Nord', [ids.shouting]: `ÉCOLE DU NORD (${ids.shouting})`, [ids.other]: 'Öffnen GmbH' });
  });

  it('refuses a name that differs from a taken one only in the case of any letter', async () => {
    for (const lookalike of ['ÖFFNEN GMBH', 'öffnen gmbh', 'École du nord']) {
      await expect(scratch.query('INSERT INTO translation.accounts (name) VALUES ($1)', [lookalike]), lookalike).rejects.toThrow(/accounts_name_key_idx/);
    }
  });

  it('reverts to the database’s own case folding without dropping anything', async () => {
    const newer = await revertAfter(scratch.url, translationDomain, MIGRATION);
    expect(await revertLastMigration(scratch.url, translationDomain)).toMatchObject({ reverted: true, plan: { migration: MIGRATION, destroys: [], destructive: false } });
    await scratch.query(`INSERT INTO translation.accounts (name) VALUES ('öffnen gmbh')`);
    await scratch.query(`DELETE FROM translation.accounts WHERE name = 'öffnen gmbh'`);
    expect(await runMigrations(scratch.url, translationDomain)).toEqual([MIGRATION, ...newer]);
  });
});
