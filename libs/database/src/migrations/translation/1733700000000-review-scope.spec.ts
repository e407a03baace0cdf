import { createScratchDatabase, type ScratchDatabase } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translationDomain } from '../../domains';
import { revertLastMigration, runMigrations } from '../../migration-runner';
import { ReviewScope1733700000000 } from './1733700000000-review-scope';

const MIGRATION = new ReviewScope1733700000000().name;

describe('migration ReviewScope1733700000000', () => {
  let scratch: ScratchDatabase;

  beforeAll(async () => {
    scratch = await createScratchDatabase('platform_review_scope_migration');
    await runMigrations(scratch.url, translationDomain);
    const applied = async () => (await scratch.query<{ name: string }>('SELECT name FROM translation.translation_migrations')).map((r) => r.name);
    while ((await applied()).includes(MIGRATION)) await revertLastMigration(scratch.url, translationDomain, { confirmed: true });
  });
  afterAll(() => scratch?.drop());

  it("gives console reviewers their user's account, keeps submitted jobs and the languages an account used open to the pool", async () => {
    const account = async (name: string) => (await scratch.query<{ id: string }>(`INSERT INTO translation.accounts (name) VALUES ($1) RETURNING id`, [name]))[0].id;
    const [reviewing, quiet] = [await account('reviewing'), await account('quiet')];
    const [{ id: consoleReviewer }] = await scratch.query<{ id: string }>(`INSERT INTO translation.reviewers (name, languages) VALUES ('r@example.eu', '{de}') RETURNING id`);
    await scratch.query(`INSERT INTO translation.console_users (account_id, email, role, password_hash, reviewer_id) VALUES ($1, 'r@example.eu', 'reviewer', 'x', $2)`, [quiet, consoleReviewer]);
    const [{ id: operatorReviewer }] = await scratch.query<{ id: string }>(`INSERT INTO translation.reviewers (languages, token_hash, token_hint) VALUES ('{fr}', 'hash', 'hint') RETURNING id`);
    const [{ id: keyId }] = await scratch.query<{ id: string }>(`INSERT INTO translation.api_keys (account_id, key_hash, key_hint, sandbox) VALUES ($1, 'h', 'h', false) RETURNING id`, [reviewing]);
    const job = (id: string, accountId: string, target: string, tier: string, sandbox: boolean) =>
      scratch.query(
        `INSERT INTO translation.batch_jobs (id, account_id, key_id, status, target, format, tier, sandbox, total, done_count, words, cost_cents)
         VALUES ($1, $2, $3, 'processing', $4, 'text', $5, $6, 1, 0, 1, 1)`,
        [id, accountId, keyId, target, tier, sandbox],
      );
    await job('job_live_fr', reviewing, 'fr', 'review', false);
    await job('job_live_de', reviewing, 'de', 'review', false);
    await job('job_sandbox_it', reviewing, 'it', 'review', true);
    await job('job_pro_es', reviewing, 'es', 'pro', false);

    expect(await runMigrations(scratch.url, translationDomain)).toContain(MIGRATION);
    expect(await scratch.query(`SELECT id, account_id FROM translation.reviewers ORDER BY name NULLS LAST`)).toEqual([
      { id: consoleReviewer, account_id: quiet },
      { id: operatorReviewer, account_id: null },
    ]);
    expect(await scratch.query(`SELECT name, review_pool_languages FROM translation.accounts ORDER BY name`)).toEqual([
      { name: 'quiet', review_pool_languages: [] },
      { name: 'reviewing', review_pool_languages: ['de', 'fr'] },
    ]);
    expect(await scratch.query(`SELECT id, review_pool FROM translation.batch_jobs ORDER BY id`)).toEqual([
      { id: 'job_live_de', review_pool: true },
      { id: 'job_live_fr', review_pool: true },
      { id: 'job_pro_es', review_pool: false },
      { id: 'job_sandbox_it', review_pool: true },
    ]);
  });
});
