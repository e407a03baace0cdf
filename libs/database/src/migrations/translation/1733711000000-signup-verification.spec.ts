import { createScratchDatabase, type ScratchDatabase } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translationDomain } from '../../domains';
import { revertLastMigration, runMigrations } from '../../migration-runner';
import { revertAfter, revertThrough } from '../migration-history.testing';
import { SignupVerification1733711000000 } from './1733711000000-signup-verification';

const MIGRATION = new SignupVerification1733711000000().name;

describe('migration SignupVerification1733711000000', () => {
  let scratch: ScratchDatabase;

  beforeAll(async () => {
    scratch = await createScratchDatabase('platform_signup_verification_migration');
    await runMigrations(scratch.url, translationDomain);
    await revertThrough(scratch.url, translationDomain, MIGRATION);
    // Accounts from before: an operator's, and one signed up in the console (sandbox, with a key).
    await scratch.query(`INSERT INTO translation.accounts (name, created_at, activated_at) VALUES ('operator', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z')`);
    const [{ id }] = await scratch.query<{ id: string }>(`INSERT INTO translation.accounts (name, created_at) VALUES ('signed-up', '2024-02-01T00:00:00Z') RETURNING id`);
    await scratch.query(`INSERT INTO translation.api_keys (account_id, key_hash, key_hint, sandbox) VALUES ($1, 'hash', 'hint', true)`, [id]);
    expect(await runMigrations(scratch.url, translationDomain)).toContain(MIGRATION);
  });
  afterAll(() => scratch?.drop());

  it('counts every account from before as confirmed and approved since it was created', async () => {
    expect(
      await scratch.query(`SELECT name, signup_verified_at = created_at AS verified, signup_approved_at = created_at AS approved FROM translation.accounts ORDER BY name`),
    ).toEqual([
      { name: 'operator', verified: true, approved: true },
      { name: 'signed-up', verified: true, approved: true },
    ]);
  });

  it('clears a new account unless it says otherwise, and approves none before it is confirmed', async () => {
    const [made] = await scratch.query<{ verified: boolean; approved: boolean }>(
      `INSERT INTO translation.accounts (name) VALUES ('new') RETURNING signup_verified_at IS NOT NULL AS verified, signup_approved_at IS NOT NULL AS approved`,
    );
    expect(made).toEqual({ verified: true, approved: true });
    await scratch.query(`INSERT INTO translation.accounts (name, signup_verified_at, signup_approved_at) VALUES ('waiting', NULL, NULL)`);
    await expect(scratch.query(`INSERT INTO translation.accounts (name, signup_verified_at, signup_approved_at) VALUES ('odd', NULL, now())`)).rejects.toThrow(
      /accounts_signup_approved_after_verified/,
    );
  });

  it('names what its revert drops, and reverts only when confirmed', async () => {
    const [{ id }] = await scratch.query<{ id: string }>(`SELECT id FROM translation.accounts WHERE name = 'waiting'`);
    await scratch.query(`INSERT INTO translation.console_email_verifications (token_hash, account_id, expires_at) VALUES ('h', $1, now() + interval '1 day')`, [id]);
    const newer = await revertAfter(scratch.url, translationDomain, MIGRATION);
    const unconfirmed = await revertLastMigration(scratch.url, translationDomain);
    expect(unconfirmed).toMatchObject({ reverted: false, plan: { migration: MIGRATION, destructive: true } });
    expect(unconfirmed.plan.destroys).toEqual([
      'table translation.console_email_verifications (1 row)',
      'column translation.accounts.signup_verified_at',
      'column translation.accounts.signup_approved_at',
    ]);
    expect((await revertLastMigration(scratch.url, translationDomain, { confirmed: true })).reverted).toBe(true);
    expect(await scratch.query(`SELECT to_regclass('translation.console_email_verifications') AS t`)).toEqual([{ t: null }]);
    expect(await runMigrations(scratch.url, translationDomain)).toEqual([MIGRATION, ...newer]);
  });
});
