import { createScratchDatabase, type ScratchDatabase } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translationDomain } from '../../domains';
import { revertLastMigration, runMigrations } from '../../migration-runner';
import { revertAfter, revertThrough } from '../migration-history.testing';
import { ConsoleUsers1733300000000 } from './1733300000000-console-users';

const MIGRATION = new ConsoleUsers1733300000000().name;

describe('migration ConsoleUsers1733300000000', () => {
  let scratch: ScratchDatabase;

  beforeAll(async () => {
    scratch = await createScratchDatabase('platform_console_migration');
    await runMigrations(scratch.url, translationDomain);
    await revertThrough(scratch.url, translationDomain, MIGRATION);

    for (const [name, ...keys] of [['live', false, true], ['sandbox', true], ['revoked-live', false], ['none']] as const) {
      const [{ id }] = await scratch.query<{ id: string }>('INSERT INTO translation.accounts (name) VALUES ($1) RETURNING id', [name]);
      for (const [i, sandbox] of keys.entries()) {
        await scratch.query(
          `INSERT INTO translation.api_keys (account_id, key_hash, key_hint, sandbox, revoked_at) VALUES ($1, $2, 'hint', $3, $4)`,
          [id, `${name}-${i}`, sandbox, name === 'revoked-live' ? new Date() : null],
        );
      }
    }
    expect(await runMigrations(scratch.url, translationDomain)).toContain(MIGRATION);
  });
  afterAll(() => scratch?.drop());

  it('counts accounts that ever held a live key as activated, since their first live key', async () => {
    const rows = await scratch.query<{ name: string; activated: boolean; since_key: boolean }>(
      `SELECT a.name, a.activated_at IS NOT NULL AS activated,
         a.activated_at = (SELECT min(created_at) FROM translation.api_keys k WHERE k.account_id = a.id AND NOT k.sandbox) AS since_key
       FROM translation.accounts a ORDER BY a.name`,
    );
    expect(rows).toEqual([
      { name: 'live', activated: true, since_key: true },
      { name: 'none', activated: false, since_key: null },
      { name: 'revoked-live', activated: true, since_key: true },
      { name: 'sandbox', activated: false, since_key: null },
    ]);
  });

  it('keeps one user per email address and one activation request per account', async () => {
    const [{ id }] = await scratch.query<{ id: string }>(`SELECT id FROM translation.accounts WHERE name = 'sandbox'`);
    await scratch.query(`INSERT INTO translation.console_users (account_id, email, role, password_hash) VALUES ($1, 'a@example.eu', 'owner', 'x')`, [id]);
    await expect(scratch.query(`INSERT INTO translation.console_users (account_id, email, role, password_hash) VALUES ($1, 'a@example.eu', 'member', 'x')`, [id])).rejects.toThrow(/duplicate key/);
    await expect(scratch.query(`INSERT INTO translation.console_users (account_id, email, role, password_hash) VALUES ($1, 'b@example.eu', 'admin', 'x')`, [id])).rejects.toThrow(/check constraint/);
    await scratch.query(`INSERT INTO translation.activation_requests (account_id, company, vat_id, intended_use) VALUES ($1, 'c', 'DE1', 'u')`, [id]);
    await expect(scratch.query(`INSERT INTO translation.activation_requests (account_id, company, vat_id, intended_use) VALUES ($1, 'c', 'DE1', 'u')`, [id])).rejects.toThrow(/duplicate key/);
  });

  it('names what its revert drops, and reverts only when confirmed', async () => {
    // Migrations newer than this one are reverted first, as an operator would.
    const newer = await revertAfter(scratch.url, translationDomain, MIGRATION);
    const unconfirmed = await revertLastMigration(scratch.url, translationDomain);
    expect(unconfirmed).toMatchObject({ reverted: false, plan: { migration: MIGRATION, destructive: true } });
    expect(unconfirmed.plan.destroys).toEqual([
      'table translation.console_users (1 row)',
      'table translation.console_sessions (0 rows)',
      'table translation.console_invitations (0 rows)',
      'table translation.activation_requests (1 row)',
      'column translation.accounts.activated_at',
    ]);
    expect((await revertLastMigration(scratch.url, translationDomain, { confirmed: true })).reverted).toBe(true);
    expect(await scratch.query(`SELECT to_regclass('translation.console_users') AS t`)).toEqual([{ t: null }]);
    expect(await runMigrations(scratch.url, translationDomain)).toEqual([MIGRATION, ...newer]);
  });
});
