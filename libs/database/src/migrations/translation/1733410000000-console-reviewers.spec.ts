import { createScratchDatabase, type ScratchDatabase } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translationDomain } from '../../domains';
import { revertLastMigration, runMigrations } from '../../migration-runner';
import { ConsoleReviewers1733410000000 } from './1733410000000-console-reviewers';

const MIGRATION = new ConsoleReviewers1733410000000().name;

describe('migration ConsoleReviewers1733410000000', () => {
  let scratch: ScratchDatabase;

  beforeAll(async () => {
    scratch = await createScratchDatabase('platform_console_reviewers_migration');
    await runMigrations(scratch.url, translationDomain);
  });
  afterAll(() => scratch?.drop());

  it('links one user to one reviewer without a token, and on revert leaves such reviewers revoked and unusable', async () => {
    const [{ id: accountId }] = await scratch.query<{ id: string }>(`INSERT INTO translation.accounts (name) VALUES ('a') RETURNING id`);
    const [{ id: reviewerId }] = await scratch.query<{ id: string }>(`INSERT INTO translation.reviewers (name, languages) VALUES ('r@example.eu', '{de}') RETURNING id`);
    const addUser = (email: string) =>
      scratch.query(`INSERT INTO translation.console_users (account_id, email, role, password_hash, reviewer_id) VALUES ($1, $2, 'reviewer', 'x', $3)`, [accountId, email, reviewerId]);
    await addUser('r@example.eu');
    await expect(addUser('s@example.eu')).rejects.toThrow(/duplicate key/);
    await scratch.query(`INSERT INTO translation.reviewers (languages, token_hash, token_hint) VALUES ('{fr}', 'hash', 'hint')`);

    const applied = async () => (await scratch.query<{ name: string }>('SELECT name FROM translation.translation_migrations')).map((r) => r.name);
    while ((await applied()).includes(MIGRATION)) await revertLastMigration(scratch.url, translationDomain, { confirmed: true });
    expect(await scratch.query(`SELECT token_hash, revoked_at IS NOT NULL AS revoked FROM translation.reviewers ORDER BY token_hash`)).toEqual([
      { token_hash: 'hash', revoked: false },
      { token_hash: `none:${reviewerId}`, revoked: true },
    ]);
    expect(await runMigrations(scratch.url, translationDomain)).toContain(MIGRATION);
  });
});
