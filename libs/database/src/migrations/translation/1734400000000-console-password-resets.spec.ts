import { createScratchDatabase, type ScratchDatabase } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translationDomain } from '../../domains';
import { revertLastMigration, runMigrations } from '../../migration-runner';
import { revertAfter } from '../migration-history.testing';
import { ConsolePasswordResets1734400000000 } from './1734400000000-console-password-resets';

const MIGRATION = new ConsolePasswordResets1734400000000().name;

describe('migration ConsolePasswordResets1734400000000', () => {
  let scratch: ScratchDatabase;
  let account: string;
  let user: string;

  beforeAll(async () => {
    scratch = await createScratchDatabase('platform_password_resets_migration');
    await runMigrations(scratch.url, translationDomain);
    [{ id: account }] = await scratch.query<{ id: string }>(`INSERT INTO translation.accounts (name) VALUES ('resets') RETURNING id`);
    [{ id: user }] = await scratch.query<{ id: string }>(
      `INSERT INTO translation.console_users (account_id, email, role, password_hash) VALUES ($1, 'ana@example.eu', 'owner', 'x') RETURNING id`,
      [account],
    );
  });
  afterAll(() => scratch?.drop());

  const insert = (tokenHash: string) =>
    scratch.query(`INSERT INTO translation.console_password_resets (account_id, user_id, token_hash, expires_at) VALUES ($1, $2, $3, now() + interval '1 hour')`, [account, user, tokenHash]);

  it('keeps each token hash once, and a user’s links go with the user', async () => {
    await insert('h1');
    await expect(insert('h1')).rejects.toThrow(/console_password_resets_token_hash_key/);
    await scratch.query(`DELETE FROM translation.console_users WHERE id = $1`, [user]);
    expect(await scratch.query(`SELECT count(*)::int AS n FROM translation.console_password_resets`)).toEqual([{ n: 0 }]);
  });

  it('names what its revert drops, and reverts only when confirmed', async () => {
    const newer = await revertAfter(scratch.url, translationDomain, MIGRATION);
    const unconfirmed = await revertLastMigration(scratch.url, translationDomain);
    expect(unconfirmed).toMatchObject({ reverted: false, plan: { migration: MIGRATION, destructive: true, destroys: ['table translation.console_password_resets (0 rows)'] } });
    expect((await revertLastMigration(scratch.url, translationDomain, { confirmed: true })).reverted).toBe(true);
    expect(await scratch.query(`SELECT to_regclass('translation.console_password_resets') AS t`)).toEqual([{ t: null }]);
    expect(await runMigrations(scratch.url, translationDomain)).toEqual([MIGRATION, ...newer]);
  });
});
