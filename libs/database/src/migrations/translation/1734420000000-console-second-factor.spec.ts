import { createScratchDatabase, type ScratchDatabase } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translationDomain } from '../../domains';
import { revertLastMigration, runMigrations } from '../../migration-runner';
import { revertAfter } from '../migration-history.testing';
import { ConsoleSecondFactor1734420000000 } from './1734420000000-console-second-factor';

const MIGRATION = new ConsoleSecondFactor1734420000000().name;

describe('migration ConsoleSecondFactor1734420000000', () => {
  let scratch: ScratchDatabase;
  let userId: string;

  beforeAll(async () => {
    scratch = await createScratchDatabase('platform_console_second_factor_migration');
    await runMigrations(scratch.url, translationDomain);
    const [{ id: accountId }] = await scratch.query<{ id: string }>(`INSERT INTO translation.accounts (name) VALUES ('acme') RETURNING id`);
    [{ id: userId }] = await scratch.query<{ id: string }>(`INSERT INTO translation.console_users (account_id, email, role, password_hash) VALUES ($1, 'a@example.eu', 'owner', 'x') RETURNING id`, [
      accountId,
    ]);
  });
  afterAll(() => scratch?.drop());

  it('keeps one second factor per user, and its recovery codes and challenges go with the user', async () => {
    await scratch.query(`INSERT INTO translation.console_second_factors (user_id, secret) VALUES ($1, 'S')`, [userId]);
    await expect(scratch.query(`INSERT INTO translation.console_second_factors (user_id, secret) VALUES ($1, 'T')`, [userId])).rejects.toThrow(/duplicate key/);
    await scratch.query(`INSERT INTO translation.console_recovery_codes (user_id, code_hash) VALUES ($1, 'h1'), ($1, 'h2')`, [userId]);
    await scratch.query(`INSERT INTO translation.console_sign_in_challenges (token_hash, user_id, expires_at) VALUES ('c', $1, now() + interval '5 minutes')`, [userId]);
    await scratch.query(`DELETE FROM translation.console_users WHERE id = $1`, [userId]);
    for (const table of ['console_second_factors', 'console_recovery_codes', 'console_sign_in_challenges']) {
      expect(await scratch.query(`SELECT count(*)::int AS n FROM translation.${table}`), table).toEqual([{ n: 0 }]);
    }
  });

  it('names what its revert drops, and reverts only when confirmed', async () => {
    const newer = await revertAfter(scratch.url, translationDomain, MIGRATION);
    const unconfirmed = await revertLastMigration(scratch.url, translationDomain);
    expect(unconfirmed).toMatchObject({ reverted: false, plan: { migration: MIGRATION, destructive: true } });
    expect(unconfirmed.plan.destroys).toEqual([
      'table translation.console_second_factors (0 rows)',
      'table translation.console_recovery_codes (0 rows)',
      'table translation.console_sign_in_challenges (0 rows)',
    ]);
    expect((await revertLastMigration(scratch.url, translationDomain, { confirmed: true })).reverted).toBe(true);
    expect(await scratch.query(`SELECT to_regclass('translation.console_second_factors') AS t`)).toEqual([{ t: null }]);
    expect(await runMigrations(scratch.url, translationDomain)).toEqual([MIGRATION, ...newer]);
  });
});
